package storage

// DM channels in bbolt: bucket "dmchannels" (platform, NUL, user -> channel ID), created by the first
// write. A cache for the adapters (bot.DMChannels): nothing else refers to it.

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/dealerbot/dealerbot/bot"
)

var bucketDMChannels = []byte("dmchannels")

var _ bot.DMChannels = (*DB)(nil)

func dmKey(platform, user string) []byte { return []byte(platform + "\x00" + user) }

// DMChannel returns the DM channel kept for user on platform.
func (d *DB) DMChannel(ctx context.Context, platform, user string) (channel string, ok bool, err error) {
	err = d.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDMChannels)
		if b == nil {
			return nil
		}
		if v := b.Get(dmKey(platform, user)); v != nil {
			channel, ok = string(v), true // string() copies: v is valid only inside the transaction
		}
		return nil
	})
	return channel, ok, err
}

// PutDMChannel keeps channel as user's DM channel on platform.
func (d *DB) PutDMChannel(ctx context.Context, platform, user, channel string) error {
	return d.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketDMChannels)
		if err != nil {
			return err
		}
		return b.Put(dmKey(platform, user), []byte(channel))
	})
}
