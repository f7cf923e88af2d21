package discord

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/engine"
	"github.com/dealerbot/dealerbot/render"
	"github.com/dealerbot/dealerbot/render/picture"
)

// Card pictures on Discord are the application's own emojis (usable in every server, no emoji server
// to join): 53 for the red-and-black deck and 53 for the four-colour one, named
//
//	db2_Kd_1a2b3c   (deck 2 or 4, the card or bk for the back, the design's version)
//
// At start the adapter lists the application's emojis, uploads only the missing ones and, once a new
// design is complete, deletes the emojis of older designs. Until a deck is complete (or when uploads
// are refused) its cards are drawn as emoji, and the game never waits for an upload.

// ourEmoji matches the names of the card emojis of any design, so that old designs can be removed and
// no other emoji of the application is ever touched.
var ourEmoji = regexp.MustCompile(`^db[24]_([2-9TJQKA][cdhs]|bk)_[0-9a-f]{6}$`)

// decks are the two colourings, in the order they are uploaded (the default first).
var decks = [2]render.Colours{render.TwoColour, render.FourColour}

// emojiName is the name of card c's emoji (c == picture.Back for the back) in a deck's design version.
func emojiName(col render.Colours, c engine.Card, version string) string {
	code := "bk"
	if c < picture.Back {
		code = c.String()
	}
	deck := 2
	if col == render.FourColour {
		deck = 4
	}
	return fmt.Sprintf("db%d_%s_%s", deck, code, version)
}

// emojiText is how a message shows an emoji.
func emojiText(name, id string) string { return "<:" + name + ":" + id + ">" }

// cardEmojis are the decks of card emojis ready to use.
type cardEmojis struct {
	mu    sync.Mutex
	faces [2]*render.Faces // by colouring; nil until the deck is complete
	done  chan struct{}    // closed when the sync has ended, whichever way
}

func (e *cardEmojis) get(four bool) *render.Faces {
	e.mu.Lock()
	defer e.mu.Unlock()
	if four {
		return e.faces[1]
	}
	return e.faces[0]
}

func (e *cardEmojis) set(i int, f *render.Faces) {
	e.mu.Lock()
	e.faces[i] = f
	e.mu.Unlock()
}

var _ bot.Pictures = (*Adapter)(nil)

// CardFaces returns the card emojis of a deck once it is on Discord. ok is whether the adapter draws
// cards as pictures at all (DISCORD_CARD_EMOJIS).
func (a *Adapter) CardFaces(_ string, four bool) (*render.Faces, bool) {
	if !a.cfg.CardEmojis {
		return nil, false
	}
	return a.emojis.get(four), true
}

// ShowsPictures reports that Discord shows a picture attached to a table message.
func (a *Adapter) ShowsPictures(string) bool { return true }

// EmojisReady is closed when the card emoji sync started by Open has ended, uploaded or not.
func (a *Adapter) EmojisReady() <-chan struct{} { return a.emojis.done }

// emojiRetries is how many times a rate-limited sync waits and tries again before giving up until
// the next start.
const emojiRetries = 5

// syncEmojis brings the application's card emojis up to date; it runs in the background from Open.
// A refusal (missing permission, a rate limit that outlasts the retries) leaves emoji cards in place,
// logged once.
func (a *Adapter) syncEmojis(ctx context.Context) {
	defer close(a.emojis.done)
	for attempt := 0; ; attempt++ {
		err := a.syncEmojisOnce(ctx)
		if err == nil || ctx.Err() != nil {
			return
		}
		if errors.Is(err, errEmojiTaken) && attempt < emojiRetries {
			// Another process of this bot uploads the same cards at the same time (several started
			// at once): list again, and take theirs.
			a.log.Info("another process is uploading the card emojis: listing them again", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(attempt+1) * time.Second):
			}
			continue
		}
		var rl *discordgo.RateLimitError
		if !errors.As(err, &rl) || attempt >= emojiRetries {
			a.log.Warn("card emojis could not be uploaded: cards are drawn as emoji until a restart succeeds", "err", err)
			return
		}
		if attempt == 0 {
			a.log.Info("uploading card emojis is rate limited: cards are drawn as emoji until it resumes", "retry_after", rl.RetryAfter)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(max(rl.RetryAfter, time.Second)):
		}
	}
}

// errEmojiTaken is an upload refused as a bad request after the list said the emoji was missing,
// which is what another process uploading the same card a moment earlier looks like.
var errEmojiTaken = errors.New("the emoji's name may have been taken meanwhile")

// uploadGap is the least time between two card emoji uploads: at most 40 a second, under Discord's
// global limit of 50 requests a second for the whole bot.
const uploadGap = 25 * time.Millisecond

// syncEmojisOnce lists the application's emojis, uploads the missing cards of each deck (shard 0 only;
// other shards wait for them) and removes older designs.
func (a *Adapter) syncEmojisOnce(ctx context.Context) error {
	opts := []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false)}
	list, err := a.session.ApplicationEmojis(a.cfg.AppID, opts...)
	if err != nil {
		return fmt.Errorf("list the application's emojis: %w", err)
	}
	have := map[string]string{} // name -> ID
	for _, e := range list {
		if e != nil {
			have[e.Name] = e.ID
		}
	}
	keep := map[string]bool{}
	uploaded := 0
	for i, col := range decks {
		deck, err := picture.Deck(col)
		if err != nil {
			return fmt.Errorf("draw the cards: %w", err)
		}
		var f render.Faces
		for c := range f {
			name := emojiName(col, engine.Card(c), deck.Version)
			keep[name] = true
			id, ok := have[name]
			if !ok {
				if a.cfg.ShardID != 0 {
					return fmt.Errorf("card emoji %s is not uploaded yet (shard 0 uploads them; restart this shard after it)", name)
				}
				if uploaded > 0 {
					// Paced under Discord's global limit of 50 requests a second, leaving room for the game.
					select {
					case <-ctx.Done():
						return ctx.Err()
					case <-time.After(uploadGap):
					}
				}
				e, err := a.session.ApplicationEmojiCreate(a.cfg.AppID, &discordgo.EmojiParams{Name: name,
					Image: "data:image/png;base64," + base64.StdEncoding.EncodeToString(deck.PNG[c])}, opts...)
				if isStatus(err, http.StatusBadRequest) {
					// Most likely the name was taken since the list: by another process uploading the
					// same cards. The next attempt lists again.
					return fmt.Errorf("upload card emoji %s: %w (%w)", name, errEmojiTaken, err)
				}
				if err != nil {
					return fmt.Errorf("upload card emoji %s: %w", name, err)
				}
				id = e.ID
				uploaded++
			}
			f[c] = emojiText(name, id)
		}
		a.emojis.set(i, &f)
	}
	removed := 0
	if a.cfg.ShardID == 0 {
		for _, e := range list {
			if e == nil || keep[e.Name] || !ourEmoji.MatchString(e.Name) {
				continue
			}
			if err := a.session.ApplicationEmojiDelete(a.cfg.AppID, e.ID, opts...); err != nil && !isStatus(err, http.StatusNotFound) {
				a.log.Warn("remove an old card emoji", "emoji", e.Name, "err", err)
				continue
			}
			removed++
		}
	}
	if uploaded > 0 || removed > 0 {
		a.log.Info("card emojis up to date", "uploaded", uploaded, "removed", removed)
	}
	return nil
}

// isStatus reports whether err is Discord answering with HTTP status code.
func isStatus(err error, code int) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == code
}

// maxAltText is the longest attachment description (alt text) Discord keeps.
const maxAltText = 1024

// pictureMessage is a channel message with one picture attached, as Discord takes it in payload_json:
// the attachment list names the uploaded file (files[0]) and gives its alt text, and replaces any
// picture the message had.
type pictureMessage struct {
	Content         string                            `json:"content"`
	Components      []discordgo.MessageComponent      `json:"components"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions,omitempty"`
	Attachments     []pictureAttachment               `json:"attachments"`
}

type pictureAttachment struct {
	ID          int    `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// withPicture posts (method POST, id "") or edits (PATCH) a channel message with pic attached and
// returns the message's ID. discordgo's MessageSend and MessageEdit have no field for an attachment's
// alt text, hence the request of its own, in the same rate-limit bucket as every message write.
func (a *Adapter) withPicture(ctx context.Context, method, channel, id string, send *discordgo.MessageSend, pic *render.Picture) (string, error) {
	name := pic.Name
	if name == "" {
		name = "picture.png"
	}
	payload := pictureMessage{Content: send.Content, Components: send.Components, AllowedMentions: send.AllowedMentions,
		Attachments: []pictureAttachment{{ID: 0, Filename: name, Description: truncate(pic.Alt, maxAltText)}}}
	if payload.Components == nil {
		payload.Components = []discordgo.MessageComponent{}
	}
	ct, body, err := discordgo.MultipartBodyWithJSON(payload, []*discordgo.File{{Name: name, ContentType: "image/png", Reader: bytes.NewReader(pic.PNG)}})
	if err != nil {
		return "", err
	}
	endpoint := discordgo.EndpointChannelMessages(channel)
	if id != "" {
		endpoint = discordgo.EndpointChannelMessage(channel, id)
	}
	resp, err := a.session.RequestRaw(method, endpoint, ct, body, discordgo.EndpointChannelMessage(channel, ""), 0, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	var msg struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(resp, &msg); err != nil || msg.ID == "" {
		return "", fmt.Errorf("discord: the answer to a message with a picture has no message ID: %v", err)
	}
	return msg.ID, nil
}
