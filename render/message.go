// Package render turns engine events and table views into platform-neutral messages: text plus optional
// buttons, public or private. It is pure: no I/O, no clocks, no storage.
package render

// Style is a button's look; adapters map it to their platform's styles.
type Style uint8

// Button styles.
const (
	Secondary Style = iota // grey
	Primary                // blue: the likely action (check, call)
	Success                // green
	Danger                 // red: fold
)

// Button is an action a player can click. Command is the bot command the click runs ("fold", "call",
// "allin", "raise", "rsvp yes"); Token ties the button to the decision point it was made for, so a click
// on an old button is answered and never acted on. A button with Amount set asks the player for an
// amount between Min and Max before running Command with it (Discord and Slack open a modal).
type Button struct {
	Label   string
	Command string
	Token   string
	Style   Style
	Amount  bool
	Min     int64
	Max     int64
	// URL makes a link button: a click opens the address (a payment app, built by dealerbot itself)
	// and runs no command.
	URL string
}

// Message is one platform-neutral message. A private message goes to one user (by DM where the platform
// has them); a public one goes to the table's channel.
type Message struct {
	Text    string
	Buttons []Button
	Private bool
	// Picture, on a table message, is shown with it where the platform can (the showdown).
	Picture *Picture
}

// File is a document sent to one user privately, such as an export of their hands.
type File struct {
	Name        string // file name with its extension: "dealerbot-hands.txt"
	ContentType string // "text/plain; charset=utf-8", "application/json"
	Data        []byte
}

// Picture is an image shown with a message, such as the picture of a showdown: a PNG, its file name
// and alt text for screen readers (naming the cards).
type Picture struct {
	Name string // "hand-12.png"
	Alt  string
	PNG  []byte
}

// CardKind is a table's choice of how cards are drawn; it is stored with the table's settings.
type CardKind uint8

// The card kinds.
const (
	CardText    CardKind = iota // A♠ K♥
	CardEmoji                   // coloured suit emoji
	CardImages                  // card pictures (Discord's application emojis), red and black
	CardImages4                 // card pictures in four colours: green clubs, blue diamonds
)

// Colours is how suits are coloured in card pictures.
type Colours uint8

// The colourings.
const (
	// TwoColour is the printed deck: hearts and diamonds red, spades and clubs black.
	TwoColour Colours = iota
	// FourColour is the online players' deck: clubs green and diamonds blue, so that no two suits
	// share a colour.
	FourColour
)

// Faces are a deck of card pictures as the platform writes them in text: Faces[c] is card c and
// Faces[52] the card back ("<:c_Kd_1a2b3c:1234>" on Discord).
type Faces [53]string

// CardStyle is how cards are drawn: a kind and, for card pictures, the faces to draw them with. Card
// pictures without faces (not uploaded yet, or refused) are drawn as emoji cards.
type CardStyle struct {
	Kind  CardKind
	Faces *Faces
}

// The card styles without pictures.
var (
	TextCards  = CardStyle{Kind: CardText}
	EmojiCards = CardStyle{Kind: CardEmoji}
)

// ImageCards draws cards with the pictures f.
func ImageCards(f *Faces) CardStyle { return CardStyle{Kind: CardImages, Faces: f} }
