package slack

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// A workspace's bot token is stored sealed (AES-256-GCM with DEALERBOT_SECRET_KEY), so a copy of the
// database (a backup, a dump, a stolen disk) holds no token that works. The sealed form is a version
// byte, the 12-byte nonce and the ciphertext with its tag; the workspace's ID is authenticated with it,
// so a sealed token copied into another workspace's record does not open there.

const sealVersion = 1

// errWrongKey is the error of a sealed token that does not open: DEALERBOT_SECRET_KEY is not the key
// it was sealed with, or the stored bytes were changed.
var errWrongKey = errors.New("the stored bot token does not open with DEALERBOT_SECRET_KEY: the key is not the one it was sealed with " +
	"(set the key the token was stored with, or have the workspace install the app again), or the stored record was changed")

// sealer seals and opens bot tokens with one key.
type sealer struct {
	aead cipher.AEAD
}

func newSealer(key []byte) (*sealer, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("DEALERBOT_SECRET_KEY must be 32 bytes, not %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &sealer{aead: aead}, nil
}

// seal returns token sealed for workspace.
func (s *sealer) seal(workspace, token string) ([]byte, error) {
	out := make([]byte, 1+s.aead.NonceSize(), 1+s.aead.NonceSize()+len(token)+s.aead.Overhead())
	out[0] = sealVersion
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("seal the bot token: %w", err)
	}
	return s.aead.Seal(out, out[1:], []byte(token), []byte(workspace)), nil
}

// open returns the token sealed for workspace, or errWrongKey.
func (s *sealer) open(workspace string, sealed []byte) (string, error) {
	n := s.aead.NonceSize()
	if len(sealed) < 1+n+s.aead.Overhead() || sealed[0] != sealVersion {
		return "", fmt.Errorf("the stored bot token of workspace %s is not in a form this dealerbot knows: have the workspace install the app again", workspace)
	}
	token, err := s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], []byte(workspace))
	if err != nil {
		return "", fmt.Errorf("workspace %s: %w", workspace, errWrongKey)
	}
	return string(token), nil
}
