package discord

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot/errs"

	"github.com/dealerbot/dealerbot/bot"
)

// CommandName is the one slash command the bot registers; everything is a subcommand of it.
const CommandName = "poker"

// maxWords is the longest free-text option, in bytes.
const maxWords = 200

// inputError is a mistake in what the user typed: the one player-facing error type (errs.Error,
// code Invalid), whose sentence is shown to them; nothing is sent to the dealer.
func inputError(msg string) error { return &errs.Error{Code: errs.Invalid, Message: msg} }

// isInputError reports whether err is a player-facing error.
func isInputError(err error) bool { return errs.CodeOf(err) != errs.Internal }

// optKind is how an option's value becomes text for the dealer.
type optKind uint8

const (
	optAmount optKind = iota // positive whole number of chips
	optCount                 // positive whole number (hands, seconds)
	optChoice                // one of the listed choices
	optUser                  // a member of the server, sent as a mention
	optWord                  // free text without line breaks
)

// optSpec describes one typed option of a subcommand. Key set means the dealer expects key=value.
type optSpec struct {
	name, desc string
	kind       optKind
	required   bool
	key        string
	word       string // a word the value follows in the dealer's text ("last 3"), when not key=value
	choices    []string
	min, max   int64 // for numbers; max 0 means no maximum
}

// subSpec describes one /poker subcommand; group set means it is a subcommand group (schedule).
type subSpec struct {
	name, desc string
	opts       []optSpec
	group      []subSpec
	bare       bool   // inside a group, the dealer's command is the subcommand alone (no group word)
	verb       string // the dealer's command words when they are not the subcommand's name
}

var (
	variantChoices = []string{"no-limit", "pot-limit", "fixed-limit"}
	gameChoices    = []string{"nlh", "plo", "plo5", "plo8", "o8", "choice"}
	cardChoices    = []string{"images", "images4", "emoji", "text"}
	pictureChoices = []string{"on", "off"}
)

// pokerSubs lists every dealer command. Discord allows 25 options per command: this uses all 25, so
// a new command has to go into a group (like schedule) rather than the top level.
// settingOpts are the typed options of start and set; "more" carries any other setting as key=value.
var settingOpts = []optSpec{
	// game before variant: a structure given with a game changes the structure the game implies.
	{name: "game", desc: "nlh hold'em, plo Omaha, plo5 5-card, plo8/o8 hi-lo; choice: dealer's choice (games= in more)", kind: optChoice, key: "game", choices: gameChoices},
	{name: "variant", desc: "Betting structure", kind: optChoice, key: "variant", choices: variantChoices},
	// The dealer takes the blinds given apart as a pair, and says so when one comes alone.
	{name: "small_blind", desc: "Small blind in chips (give the big blind too)", kind: optAmount, key: "small_blind", min: 1},
	{name: "big_blind", desc: "Big blind in chips (give the small blind too)", kind: optAmount, key: "big_blind", min: 1},
	{name: "ante", desc: "Ante in chips (0 for none)", kind: optAmount, key: "ante", min: 0},
	{name: "buyin", desc: "Chips a player brings when joining without an amount", kind: optAmount, key: "buyin", min: 1},
	{name: "timer", desc: "Seconds each player has to act (0 for no timer)", kind: optCount, key: "timer", min: 0, max: 600},
	{name: "cards", desc: "How cards are drawn: pictures (images, images4 in four colours), emoji or text", kind: optChoice, key: "cards", choices: cardChoices},
	{name: "pictures", desc: "A picture of each showdown on the table message", kind: optChoice, key: "pictures", choices: pictureChoices},
	{name: "seats", desc: "Seats at the table", kind: optCount, key: "seats", min: 2, max: 10},
	{name: "more", desc: "Other settings as key=value, e.g. rebuy=no levels=10m end=2h", kind: optWord},
	// Playing for money (money.go, /pokermoney).
	{name: "value", desc: "What one chip is worth, e.g. 0.01 (give the currency too)", kind: optWord, key: "value"},
	{name: "currency", desc: "The chip value's ISO 4217 currency, e.g. USD or EUR", kind: optWord, key: "currency"},
}

// pokerSubs lists every dealer command. Discord allows 25 options per command: this uses all 25, so
// a new command has to go into a group (like schedule) rather than the top level.
var pokerSubs = []subSpec{
	{name: "start", desc: "Open a table in this channel", opts: settingOpts},
	{name: "set", desc: "Change the table's settings (host or admin)", opts: settingOpts},
	{name: "join", desc: "Sit down at the table", opts: []optSpec{
		{name: "amount", desc: "Chips to bring (default: the table's buy-in)", kind: optAmount, min: 1},
	}},
	{name: "leave", desc: "Leave the table and cash out"},
	{name: "sitout", desc: "Sit out from the next hand", opts: []optSpec{
		{name: "when", desc: "bb: play until the big blind would reach you, then sit out", kind: optChoice, choices: []string{"bb"}},
	}},
	{name: "sitin", desc: "Come back in from the next hand", opts: []optSpec{
		{name: "blinds", desc: "post: post the blinds you missed and play now; wait: wait for the big blind", kind: optChoice, choices: []string{"post", "wait"}},
	}},
	{name: "rebuy", desc: "Add chips between hands", opts: []optSpec{
		{name: "amount", desc: "Chips to add (default: the table's buy-in)", kind: optAmount, min: 1},
	}},
	{name: "deal", desc: "Deal the next hand"},
	{name: "fold", desc: "Fold your hand"},
	{name: "check", desc: "Check"},
	{name: "call", desc: "Call the current bet"},
	{name: "bet", desc: "Bet an amount", opts: []optSpec{
		{name: "amount", desc: "Chips to bet", kind: optAmount, required: true, min: 1},
	}},
	{name: "raise", desc: "Raise to an amount", opts: []optSpec{
		{name: "to", desc: "Total bet to raise to, in chips", kind: optAmount, required: true, min: 1},
	}},
	{name: "allin", desc: "Put all your chips in"},
	{name: "cards", desc: "Show me my hole cards (only you see them)"},
	{name: "table", desc: "Show the table"},
	{name: "show", desc: "Show your cards after the hand"},
	{name: "chips", desc: "Show my bankroll"},
	{name: "leaderboard", desc: "Show the server's bankrolls, or a season of scheduled games", opts: []optSpec{
		{name: "scope", desc: "season: results of this channel's scheduled games (leave out for bankrolls)", kind: optChoice, choices: []string{"season"}},
	}},
	{name: "homegame", desc: "Home-game options: straddle, bomb pot, tournament", group: []subSpec{
		{name: "straddle", desc: "Straddle (twice the big blind) in your next hand under the gun", bare: true},
		{name: "bombpot", desc: "Make the next hand a bomb pot (host)", bare: true, opts: []optSpec{
			{name: "ante", desc: "Chips everyone puts in (default: twice the big blind)", kind: optAmount, min: 1},
		}},
		{name: "tournament", verb: "start tournament", desc: "Open a tournament in this channel: join registers, deal begins it", bare: true, opts: []optSpec{
			{name: "buyin", desc: "Chips each entry pays into the prize pool (default 1000)", kind: optAmount, key: "buyin", min: 1},
			{name: "stack", desc: "Tournament chips each entry starts with (default 1500)", kind: optAmount, key: "stack", min: 1},
			{name: "payouts", desc: "Percent by place, e.g. 50/30/20 (default by entrants)", kind: optWord, key: "payouts"},
			{name: "levels", desc: "Blinds rise every, e.g. 15m or 20hands (default 15m)", kind: optWord, key: "levels"},
			{name: "rebuy", desc: "Rebuys per player: no, yes or a number (default no)", kind: optWord, key: "rebuy"},
			{name: "rebuylevels", desc: "Rebuys allowed until this level ends", kind: optCount, key: "rebuylevels", min: 1, max: 100},
			{name: "more", desc: "Other settings as key=value, e.g. blinds=10/20 timer=30 end=3h", kind: optWord},
		}},
	}},
	{name: "hands", desc: "Finished hands: history, exports for trackers, fairness proofs", group: []subSpec{
		{name: "history", desc: "Show a finished hand (the latest if not said)", bare: true, opts: []optSpec{
			{name: "hand", desc: "The hand's number (#12 in the table's messages)", kind: optCount, min: 1, max: 1 << 30},
			{name: "back", desc: "Or counting back: 1 for the last, 2 for the one before, up to 100", kind: optCount, min: 1, max: 100, word: "last"},
		}},
		{name: "export", desc: "A file of your hands here for your tracker (only you see it)", bare: true, opts: []optSpec{
			{name: "last", desc: "How many of your recent hands (default 20, up to 1000)", kind: optCount, min: 1, max: 1000},
			{name: "session", desc: "session: every hand of the running session instead", kind: optChoice, choices: []string{"session"}},
			{name: "format", desc: "pokerstars text (the default) or ohh JSON", kind: optChoice, choices: []string{"pokerstars", "ohh"}},
		}},
		{name: "verify", desc: "How the deck is proven fixed; with a hand number, that hand's proof", bare: true, opts: []optSpec{
			{name: "hand", desc: "The hand's number (#12 in the table's messages)", kind: optCount, min: 1, max: 1 << 30},
		}},
	}},
	{name: "end", desc: "End the game at this table"},
	{name: "kick", desc: "Remove a player from the table (admins)", opts: []optSpec{
		{name: "player", desc: "The player to remove", kind: optUser, required: true},
	}},
	{name: "help", desc: "How to play with the dealer", opts: []optSpec{
		{name: "command", desc: "A command for its details, e.g. start, raise or set", kind: optWord},
	}},
	{name: "schedule", desc: "Scheduled games", group: []subSpec{
		{name: "add", desc: "Schedule a game in this channel", opts: []optSpec{
			{name: "when", desc: "When, e.g. \"fri 20:00\", \"every tue,thu 21:00\" or a cron line", kind: optWord, required: true},
			{name: "tz", desc: "Time zone (IANA name, e.g. Europe/Berlin); default from the bot's settings", kind: optWord, key: "tz"},
			{name: "length", desc: "How long the game runs, e.g. 3h or 90m (default 3h)", kind: optWord, key: "length"},
			{name: "game", desc: "Game settings as for start, e.g. blinds=5/10 buyin=500 levels=20m rebuy=no", kind: optWord},
		}},
		{name: "list", desc: "List scheduled games"},
		{name: "remove", desc: "Remove a scheduled game", opts: []optSpec{
			{name: "id", desc: "The game's ID from /poker schedule list", kind: optWord, required: true},
		}},
		{name: "skip", desc: "Skip the next occurrence of a game", opts: []optSpec{
			{name: "id", desc: "The game's ID from /poker schedule list", kind: optWord, required: true},
		}},
		// rsvp lives here because the top level is full; it is still the dealer's "rsvp" command.
		{name: "rsvp", desc: "Answer the invitation to the next game", bare: true, opts: []optSpec{
			{name: "answer", desc: "Will you play?", kind: optChoice, required: true, choices: []string{"yes", "maybe", "no"}},
		}},
	}},
}

// Commands returns the application commands to register, usable in servers only (a table belongs to
// a channel): /poker with a subcommand for every game command, and /pokermoney for money and stats
// (money.go), since /poker holds Discord's maximum of 25.
func Commands() []*discordgo.ApplicationCommand {
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	noDM := false
	return []*discordgo.ApplicationCommand{{
		Type:         discordgo.ChatApplicationCommand,
		Name:         CommandName,
		Description:  "Play Texas Hold'em with the dealer",
		DMPermission: &noDM,
		Contexts:     &contexts,
		Options:      subOptions(pokerSubs),
	}, {
		Type:         discordgo.ChatApplicationCommand,
		Name:         MoneyCommandName,
		Description:  "After the game: payment handles, debts, expenses, money export and stats",
		DMPermission: &noDM,
		Contexts:     &contexts,
		Options:      subOptions(moneySubs),
	}}
}

func subOptions(subs []subSpec) []*discordgo.ApplicationCommandOption {
	var out []*discordgo.ApplicationCommandOption
	for _, s := range subs {
		o := &discordgo.ApplicationCommandOption{Name: s.name, Description: s.desc}
		if s.group != nil {
			o.Type = discordgo.ApplicationCommandOptionSubCommandGroup
			o.Options = subOptions(s.group)
		} else {
			o.Type = discordgo.ApplicationCommandOptionSubCommand
			for _, spec := range s.opts {
				o.Options = append(o.Options, specOption(spec))
			}
		}
		out = append(out, o)
	}
	return out
}

func specOption(spec optSpec) *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Name: spec.name, Description: spec.desc, Required: spec.required}
	switch spec.kind {
	case optAmount, optCount:
		o.Type = discordgo.ApplicationCommandOptionInteger
		lo := float64(spec.min)
		o.MinValue = &lo
		o.MaxValue = float64(spec.max)
	case optChoice:
		o.Type = discordgo.ApplicationCommandOptionString
		for _, c := range spec.choices {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: c, Value: c})
		}
	case optUser:
		o.Type = discordgo.ApplicationCommandOptionUser
	case optWord:
		o.Type = discordgo.ApplicationCommandOptionString
		o.MaxLength = maxWords
	}
	return o
}

// CommandText turns the data of a /poker interaction into the command line the dealer parses,
// such as "raise 60" or "start variant=pot-limit blinds=10/20". Every value is checked here (the
// client can send anything): a bad one gives an error whose text tells the user what to do instead.
func CommandText(d discordgo.ApplicationCommandInteractionData) (string, error) {
	subs, example := pokerSubs, "join"
	switch d.Name {
	case CommandName:
	case MoneyCommandName:
		subs, example = moneySubs, "debts"
	default:
		return "", inputError(fmt.Sprintf("I only know /%s and /%s; type /%s help to see what they can do.", CommandName, MoneyCommandName, CommandName))
	}
	if len(d.Options) != 1 || d.Options[0] == nil {
		return "", inputError(fmt.Sprintf("Pick one of the /%s subcommands, such as /%s %s.", d.Name, d.Name, example))
	}
	return subText(subs, d.Options[0], "/"+d.Name)
}

func subText(subs []subSpec, o *discordgo.ApplicationCommandInteractionDataOption, path string) (string, error) {
	var spec *subSpec
	for i := range subs {
		if subs[i].name == o.Name {
			spec = &subs[i]
		}
	}
	if spec == nil {
		return "", inputError(fmt.Sprintf("%s has no subcommand %q; type /%s help to see them all.", path, o.Name, CommandName))
	}
	path += " " + spec.name
	if spec.group != nil {
		if o.Type != discordgo.ApplicationCommandOptionSubCommandGroup || len(o.Options) != 1 || o.Options[0] == nil {
			return "", inputError(fmt.Sprintf("Pick one of the %s subcommands, such as %s %s.", path, path, spec.group[0].name))
		}
		rest, err := subText(spec.group, o.Options[0], path)
		if err != nil {
			return "", err
		}
		for _, g := range spec.group {
			if g.name == o.Options[0].Name && g.bare {
				return rest, nil
			}
		}
		return spec.name + " " + rest, nil
	}
	if o.Type != discordgo.ApplicationCommandOptionSubCommand {
		return "", inputError(fmt.Sprintf("%s is a subcommand; pick it from the list after /%s.", path, CommandName))
	}
	vals := map[string]string{}
	for _, got := range o.Options {
		if got == nil {
			continue
		}
		var os *optSpec
		for i := range spec.opts {
			if spec.opts[i].name == got.Name {
				os = &spec.opts[i]
			}
		}
		if os == nil {
			return "", inputError(fmt.Sprintf("%s has no option %q; pick options from the list Discord shows.", path, got.Name))
		}
		v, err := optValue(*os, got, path)
		if err != nil {
			return "", err
		}
		vals[os.name] = v
	}
	words := []string{spec.name}
	if spec.verb != "" {
		words = []string{spec.verb}
	}
	for _, os := range spec.opts {
		v, ok := vals[os.name]
		switch {
		case !ok && os.required:
			return "", inputError(fmt.Sprintf("%s needs the %s option: %s.", path, os.name, strings.ToLower(os.desc)))
		case !ok:
		case os.key != "":
			words = append(words, os.key+"="+v)
		case os.word != "":
			words = append(words, os.word, v)
		default:
			words = append(words, v)
		}
	}
	return strings.Join(words, " "), nil
}

// optValue checks one option's value against its spec and returns it as the dealer's text. Values are
// read by hand rather than with IntValue and friends, which panic on a type the client should not send.
func optValue(spec optSpec, o *discordgo.ApplicationCommandInteractionDataOption, path string) (string, error) {
	switch spec.kind {
	case optAmount, optCount:
		f, ok := o.Value.(float64)
		hi := float64(spec.max)
		if spec.max == 0 {
			hi = 1e15
		}
		if o.Type != discordgo.ApplicationCommandOptionInteger || !ok || f != math.Trunc(f) || f < float64(spec.min) || f > hi {
			rng := fmt.Sprintf("%d or more", spec.min)
			if spec.max > 0 {
				rng = fmt.Sprintf("from %d to %d", spec.min, spec.max)
			}
			what := "a whole number"
			if spec.kind == optAmount {
				what = "a whole number of chips"
			}
			return "", inputError(fmt.Sprintf("%s %s must be %s, %s.", path, spec.name, what, rng))
		}
		return strconv.FormatInt(int64(f), 10), nil
	case optChoice:
		s, _ := o.Value.(string)
		for _, c := range spec.choices {
			if o.Type == discordgo.ApplicationCommandOptionString && strings.EqualFold(s, c) {
				return c, nil
			}
		}
		return "", inputError(fmt.Sprintf("%s %s must be one of %s; pick it from the list.", path, spec.name, strings.Join(spec.choices, ", ")))
	case optUser:
		s, _ := o.Value.(string)
		if o.Type != discordgo.ApplicationCommandOptionUser || !isSnowflake(s) {
			return "", inputError(fmt.Sprintf("%s %s must be a member of this server; pick one from the list.", path, spec.name))
		}
		return "<@" + s + ">", nil
	default: // optWord
		s, _ := o.Value.(string)
		s = strings.Join(strings.Fields(s), " ")
		if o.Type != discordgo.ApplicationCommandOptionString || s == "" || len(s) > maxWords {
			return "", inputError(fmt.Sprintf("%s %s must be a short line of text: %s.", path, spec.name, strings.ToLower(spec.desc)))
		}
		return s, nil
	}
}

// interactionUser returns who sent an interaction: Member.User in a server, User in a DM.
func interactionUser(i *discordgo.Interaction) (*discordgo.User, string) {
	if i.Member != nil && i.Member.User != nil {
		name := i.Member.Nick
		if name == "" {
			name = displayName(i.Member.User)
		}
		return i.Member.User, nameEscaper.Replace(name)
	}
	if i.User != nil {
		return i.User, nameEscaper.Replace(displayName(i.User))
	}
	return nil, ""
}

// nameEscaper makes a display name print as written in Discord's markdown: `*bob*` is not bold, and
// a name holding `<@123>` neither mentions nor pings anyone. The dealer puts names in channel text.
var nameEscaper = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`,
	"<", `\<`, ">", `\>`, "#", `\#`, "[", `\[`, "]", `\]`)

func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// adminPermissions are the member permissions that make a user an admin for the dealer.
const adminPermissions = discordgo.PermissionAdministrator | discordgo.PermissionManageGuild

// baseCommand fills the parts of a bot.Command every kind of interaction shares. It refuses
// interactions from outside a server, since tables and bankrolls belong to a server.
func baseCommand(i *discordgo.Interaction) (bot.Command, error) {
	u, name := interactionUser(i)
	if u == nil || u.ID == "" {
		return bot.Command{}, inputError("I could not tell who you are; try again from a server channel.")
	}
	if i.GuildID == "" || i.ChannelID == "" {
		return bot.Command{}, inputError(fmt.Sprintf("Poker tables live in server channels: use /%s in a channel of your server, not in a direct message.", CommandName))
	}
	c := bot.Command{
		Platform:  "discord",
		Workspace: i.GuildID,
		Channel:   i.ChannelID,
		User:      u.ID,
		UserName:  name,
	}
	if i.Member != nil && i.Member.Permissions&adminPermissions != 0 {
		c.Admin = true
	}
	return c, nil
}

// SlashCommand translates a /poker interaction into a dealer command.
func SlashCommand(i *discordgo.Interaction) (bot.Command, error) {
	if i.Type != discordgo.InteractionApplicationCommand {
		return bot.Command{}, fmt.Errorf("interaction type %v is not a slash command", i.Type)
	}
	c, err := baseCommand(i)
	if err != nil {
		return c, err
	}
	d, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok {
		return bot.Command{}, inputError(fmt.Sprintf("That command arrived garbled; try /%s again.", CommandName))
	}
	c.Text, err = CommandText(d)
	if err != nil {
		return bot.Command{}, err
	}
	return c, nil
}
