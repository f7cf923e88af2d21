package storage

// Installations in bbolt: bucket "installations" (community "platform/workspace" -> JSON
// bot.Installation). The bot token in it is sealed by the adapter before it gets here; the store
// keeps the sealed bytes as they are.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/bot/table"
)

var bucketInstallations = []byte("installations")

var _ bot.Installations = (*DB)(nil)

// PutInstallation stores in, replacing the workspace's installation if there is one.
func (d *DB) PutInstallation(ctx context.Context, in bot.Installation) error {
	if in.Platform == "" || in.Workspace == "" {
		return errors.New("store an installation: no platform or workspace given")
	}
	return d.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketInstallations)
		if err != nil {
			return err
		}
		return put(b, []byte(table.Community(in.Platform, in.Workspace)), in)
	})
}

// Installation returns a workspace's installation; ok is false when there is none.
func (d *DB) Installation(ctx context.Context, platform, workspace string) (bot.Installation, bool, error) {
	var in bot.Installation
	var ok bool
	err := d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketInstallations)
		if b == nil {
			return nil
		}
		key := table.Community(platform, workspace)
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		ok = true
		if err := json.Unmarshal(v, &in); err != nil {
			return fmt.Errorf("installation of %s: %w", key, err)
		}
		return nil
	})
	if err != nil {
		return bot.Installation{}, false, err
	}
	return in, ok, nil
}

// DeleteInstallation removes a workspace's installation, if there is one.
func (d *DB) DeleteInstallation(ctx context.Context, platform, workspace string) error {
	return d.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketInstallations)
		if b == nil {
			return nil
		}
		return b.Delete([]byte(table.Community(platform, workspace)))
	})
}
