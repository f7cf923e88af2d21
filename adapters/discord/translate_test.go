package discord

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/dealerbot/dealerbot/bot"
	"github.com/dealerbot/dealerbot/render"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr string // a fragment of the sentence the user reads
	}{
		{name: "nothing set is disabled", env: map[string]string{}, want: Config{}},
		{name: "minimal", env: map[string]string{"DISCORD_TOKEN": "abc.def", "DISCORD_APP_ID": "123"},
			want: Config{Token: "abc.def", AppID: "123", ShardCount: 1, CardEmojis: true, GlobalShare: 1}},
		{name: "pasted Bot prefix is dropped", env: map[string]string{"DISCORD_TOKEN": "Bot abc", "DISCORD_APP_ID": "1"},
			want: Config{Token: "abc", AppID: "1", ShardCount: 1, CardEmojis: true, GlobalShare: 1}},
		{name: "guild and shards", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_GUILD_ID": "99", "DISCORD_SHARD_ID": "2", "DISCORD_SHARD_COUNT": "3"},
			want: Config{Token: "t", AppID: "1", GuildID: "99", ShardID: 2, ShardCount: 3, CardEmojis: true, GlobalShare: 1}},
		{name: "card emojis off", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_CARD_EMOJIS": "off"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, GlobalShare: 1}},
		{name: "card emojis neither on nor off", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_CARD_EMOJIS": "maybe"}, wantErr: "DISCORD_CARD_EMOJIS must be on or off"},
		{name: "token without app id", env: map[string]string{"DISCORD_TOKEN": "t"}, wantErr: "DISCORD_APP_ID is missing"},
		{name: "app id not numeric", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "my-app"}, wantErr: "numeric Application ID"},
		{name: "guild id not numeric", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_GUILD_ID": "home"}, wantErr: "Copy Server ID"},
		{name: "shard count zero", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_SHARD_COUNT": "0"}, wantErr: "DISCORD_SHARD_COUNT must be a whole number, 1 or more"},
		{name: "shard id negative", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_SHARD_ID": "-1"}, wantErr: "DISCORD_SHARD_ID must be a whole number, 0 or more"},
		{name: "shard id out of range", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_SHARD_ID": "2", "DISCORD_SHARD_COUNT": "2"}, wantErr: "shards are numbered from 0"},
		{name: "interactions endpoint beside the gateway", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1",
			"DISCORD_PUBLIC_KEY": " " + strings.ToUpper(testPublicKey) + " ", "DEALERBOT_LISTEN_ADDR": ":8080"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, PublicKey: testPublicKey, ListenAddr: ":8080", GlobalShare: 1}},
		{name: "interactions endpoint alone", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1",
			"DISCORD_PUBLIC_KEY": testPublicKey, "DEALERBOT_LISTEN_ADDR": "127.0.0.1:8080", "DISCORD_GATEWAY": "off"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, PublicKey: testPublicKey, ListenAddr: "127.0.0.1:8080", GatewayOff: true, GlobalShare: 1}},
		{name: "a listen address alone leaves the gateway", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DEALERBOT_LISTEN_ADDR": ":8080", "DISCORD_GATEWAY": "on"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, ListenAddr: ":8080", GlobalShare: 1}},
		{name: "public key not hex", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DEALERBOT_LISTEN_ADDR": ":8080",
			"DISCORD_PUBLIC_KEY": "MTAx.secret-token-pasted-here"}, wantErr: "DISCORD_PUBLIC_KEY must be the Public Key from the Developer Portal (your application > General Information), 64 characters of 0-9 and a-f; the value set has 29 characters, not all of them hexadecimal"},
		{name: "public key too short", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DEALERBOT_LISTEN_ADDR": ":8080",
			"DISCORD_PUBLIC_KEY": testPublicKey[:62]}, wantErr: "64 characters of 0-9 and a-f; the value set has 62 characters"},
		{name: "public key without a listen address", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_PUBLIC_KEY": testPublicKey},
			wantErr: "DISCORD_PUBLIC_KEY is set but DEALERBOT_LISTEN_ADDR is not: set the address to serve /discord/interactions on"},
		{name: "gateway off without the endpoint", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_GATEWAY": "off", "DEALERBOT_LISTEN_ADDR": ":8080"},
			wantErr: "DISCORD_GATEWAY=off needs DISCORD_PUBLIC_KEY and DEALERBOT_LISTEN_ADDR"},
		{name: "a rate-limit proxy takes over the global limit", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_REST_PROXY": " http://nirn:8080/ "},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, RESTProxy: "http://nirn:8080"}},
		{name: "three processes share the global limit", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_GLOBAL_SHARE": "3"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, GlobalShare: 3}},
		{name: "a proxy and a share", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_REST_PROXY": "https://proxy.internal", "DISCORD_GLOBAL_SHARE": "2"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, RESTProxy: "https://proxy.internal", GlobalShare: 2}},
		{name: "hole cards ephemeral", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_HOLE_CARDS": "Ephemeral"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, GlobalShare: 1, EphemeralCards: true}},
		{name: "hole cards by DM", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_HOLE_CARDS": "dm"},
			want: Config{Token: "t", AppID: "1", ShardCount: 1, CardEmojis: true, GlobalShare: 1}},
		{name: "hole cards neither", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_HOLE_CARDS": "channel"}, wantErr: "DISCORD_HOLE_CARDS must be dm (the default: cards by direct message) or ephemeral"},
		{name: "proxy with a path", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_REST_PROXY": "http://nirn:8080/api/v9"}, wantErr: "DISCORD_REST_PROXY must be the base URL of the rate-limit proxy, such as http://nirn-proxy:8080, with no path"},
		{name: "proxy without a scheme", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_REST_PROXY": "nirn:8080"}, wantErr: "DISCORD_REST_PROXY must be the base URL"},
		{name: "share of none", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_GLOBAL_SHARE": "0"}, wantErr: "DISCORD_GLOBAL_SHARE must be the number of dealerbot processes sharing the bot token, 1 to 45"},
		{name: "share too thin", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_GLOBAL_SHARE": "46"}, wantErr: "more processes than that need DISCORD_REST_PROXY"},
		{name: "gateway neither on nor off", env: map[string]string{"DISCORD_TOKEN": "t", "DISCORD_APP_ID": "1", "DISCORD_GATEWAY": "http"}, wantErr: "DISCORD_GATEWAY must be on or off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConfigFromEnv(env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ConfigFromEnv() error = %v, want one containing %q", err, tt.wantErr)
				}
				if k := tt.env["DISCORD_PUBLIC_KEY"]; k != "" && strings.Contains(err.Error(), k) {
					t.Errorf("the error repeats the value of DISCORD_PUBLIC_KEY (it may be a pasted token): %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ConfigFromEnv() error = %v", err)
			}
			if got != tt.want {
				t.Errorf("ConfigFromEnv() = %+v, want %+v", got, tt.want)
			}
			if got.Enabled() != (tt.want.Token != "") {
				t.Errorf("Enabled() = %v with token %q", got.Enabled(), got.Token)
			}
		})
	}
}

func TestInviteURL(t *testing.T) {
	u, err := url.Parse(Config{Token: "t", AppID: "4242"}.InviteURL())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if got, want := u.Host, "discord.com"; got != want {
		t.Errorf("host = %q, want %q", got, want)
	}
	if got, want := q.Get("client_id"), "4242"; got != want {
		t.Errorf("client_id = %q, want %q", got, want)
	}
	if got, want := q.Get("scope"), "bot applications.commands"; got != want {
		t.Errorf("scope = %q, want %q", got, want)
	}
	perm, err := strconv.ParseInt(q.Get("permissions"), 10, 64)
	if err != nil {
		t.Fatalf("permissions %q: %v", q.Get("permissions"), err)
	}
	for _, need := range []struct {
		name string
		bit  int64
	}{{"View Channel", discordgo.PermissionViewChannel}, {"Send Messages", discordgo.PermissionSendMessages}, {"Send Messages in Threads", discordgo.PermissionSendMessagesInThreads},
		{"Attach Files (the showdown picture)", discordgo.PermissionAttachFiles}} {
		if perm&need.bit == 0 {
			t.Errorf("invite lacks %s", need.name)
		}
	}
	if perm&(discordgo.PermissionAdministrator|discordgo.PermissionManageGuild|discordgo.PermissionMentionEveryone) != 0 {
		t.Errorf("invite asks for more than it needs: %d", perm)
	}
}

var nameRE = regexp.MustCompile(`^[-_a-z0-9]{1,32}$`)

// TestCommandsFitDiscord checks what Discord itself would refuse at registration, and that every
// dealer command can be reached.
func TestCommandsFitDiscord(t *testing.T) {
	cmds := Commands()
	if len(cmds) != 2 || cmds[0].Name != "poker" || cmds[1].Name != "pokermoney" {
		t.Fatalf("want /poker and /pokermoney, got %d commands", len(cmds))
	}
	var check func(path string, opts []*discordgo.ApplicationCommandOption)
	seen := map[string]bool{}
	check = func(path string, opts []*discordgo.ApplicationCommandOption) {
		if len(opts) > 25 {
			t.Errorf("%s has %d options, Discord allows 25", path, len(opts))
		}
		optional := false
		for _, o := range opts {
			p := path + " " + o.Name
			if !nameRE.MatchString(o.Name) {
				t.Errorf("%s: name %q is not a valid Discord option name", p, o.Name)
			}
			if n := utf8.RuneCountInString(o.Description); n < 1 || n > 100 {
				t.Errorf("%s: description has %d characters, want 1-100", p, n)
			}
			if o.Required && optional {
				t.Errorf("%s: required option after an optional one", p)
			}
			if !o.Required {
				optional = true
			}
			if len(o.Choices) > 25 {
				t.Errorf("%s: %d choices", p, len(o.Choices))
			}
			if o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				optional = false
				seen[strings.TrimPrefix(strings.TrimPrefix(p, "/poker "), "/pokermoney ")] = true
				check(p, o.Options)
			}
		}
	}
	check("/poker", cmds[0].Options)
	check("/pokermoney", cmds[1].Options)
	for _, c := range []string{"start", "join", "leave", "sitout", "sitin", "rebuy", "deal", "fold", "check", "call",
		"bet", "raise", "allin", "cards", "table", "show", "chips", "leaderboard", "hands history", "hands verify", "hands export", "homegame straddle", "homegame bombpot", "homegame tournament", "end", "kick",
		"help", "set", "schedule add", "schedule list", "schedule remove", "schedule skip", "schedule rsvp",
		"payment", "debts", "paid", "confirm", "dispute", "forgive", "expense", "export", "stats", "chart"} {
		if !seen[c] {
			t.Errorf("no subcommand for %q", c)
		}
	}
	// The registration payload must survive a JSON round trip (it is what discordgo sends).
	if _, err := json.Marshal(cmds); err != nil {
		t.Fatal(err)
	}
}

// opt builds interaction option data the way discordgo decodes it from JSON (numbers as float64).
func opt(name string, typ discordgo.ApplicationCommandOptionType, v any, sub ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: typ, Value: v, Options: sub}
}

func sub(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	return opt(name, discordgo.ApplicationCommandOptionSubCommand, nil, opts...)
}

const (
	tInt    = discordgo.ApplicationCommandOptionInteger
	tString = discordgo.ApplicationCommandOptionString
	tUser   = discordgo.ApplicationCommandOptionUser
	tGroup  = discordgo.ApplicationCommandOptionSubCommandGroup
)

func TestCommandText(t *testing.T) {
	tests := []struct {
		name    string
		opts    []*discordgo.ApplicationCommandInteractionDataOption
		want    string
		wantErr string
	}{
		{name: "join default", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("join")}, want: "join"},
		{name: "join amount", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("join", opt("amount", tInt, 1000.0))}, want: "join 1000"},
		{name: "raise", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("raise", opt("to", tInt, 60.0))}, want: "raise 60"},
		{name: "bet", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("bet", opt("amount", tInt, 25.0))}, want: "bet 25"},
		{name: "fold", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("fold")}, want: "fold"},
		{name: "sitout bb", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("sitout", opt("when", tString, "bb"))}, want: "sitout bb"},
		{name: "sitin post", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("sitin", opt("blinds", tString, "post"))}, want: "sitin post"},
		{name: "history back", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("hands", tGroup, nil, sub("history", opt("back", tInt, 5.0)))}, want: "history last 5"},
		{name: "history hand", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("hands", tGroup, nil, sub("history", opt("hand", tInt, 15.0)))}, want: "history 15"},
		{name: "bombpot", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("homegame", tGroup, nil, sub("bombpot", opt("ante", tInt, 30.0)))}, want: "bombpot 30"},
		{name: "tournament", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("homegame", tGroup, nil, sub("tournament", opt("payouts", tString, "60/40"), opt("buyin", tInt, 100.0), opt("more", tString, "blinds=10/20"), opt("stack", tInt, 1500.0)))}, want: "start tournament buyin=100 stack=1500 payouts=60/40 blinds=10/20"},
		{name: "export", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("hands", tGroup, nil, sub("export"))}, want: "export"},
		{name: "export last ohh", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("hands", tGroup, nil, sub("export", opt("last", tInt, 50.0), opt("format", tString, "ohh")))}, want: "export 50 ohh"},
		{name: "export session", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("hands", tGroup, nil, sub("export", opt("session", tString, "session")))}, want: "export session"},
		{name: "verify hand", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("hands", tGroup, nil, sub("verify", opt("hand", tInt, 12.0)))}, want: "verify 12"},
		{name: "set ante and more", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("set", opt("more", tString, "rebuy=no  levels=10m"), opt("ante", tInt, 0.0))}, want: "set ante=0 rebuy=no levels=10m"},
		{name: "set blinds", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("set", opt("small_blind", tInt, 25.0), opt("big_blind", tInt, 50.0))}, want: "set small_blind=25 big_blind=50"},
		{name: "timer off", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("start", opt("timer", tInt, 0.0), opt("seats", tInt, 6.0))}, want: "start timer=0 seats=6"},
		{name: "start everything, options in any order", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("start",
			opt("cards", tString, "emoji"), opt("big_blind", tInt, 20.0), opt("timer", tInt, 60.0),
			opt("variant", tString, "pot-limit"), opt("buyin", tInt, 1000.0), opt("small_blind", tInt, 10.0))},
			want: "start variant=pot-limit small_blind=10 big_blind=20 buyin=1000 timer=60 cards=emoji"},
		{name: "start defaults", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("start")}, want: "start"},
		{name: "help for a command", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("help", opt("command", tString, "start"))}, want: "help start"},
		{name: "help alone", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("help")}, want: "help"},
		{name: "kick mentions the user", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("kick", opt("player", tUser, "80351110224678912"))}, want: "kick <@80351110224678912>"},
		{name: "schedule add", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("schedule", tGroup, nil, sub("add", opt("when", tString, "  fri\n20:00 ")))}, want: "schedule add fri 20:00"},
		{name: "schedule add with options", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("schedule", tGroup, nil, sub("add", opt("when", tString, "every tue,thu 21:00"), opt("tz", tString, "Europe/Berlin"), opt("length", tString, "2h"), opt("game", tString, "blinds=5/10 rebuy=no")))}, want: "schedule add every tue,thu 21:00 tz=Europe/Berlin length=2h blinds=5/10 rebuy=no"},
		{name: "season leaderboard", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("leaderboard", opt("scope", tString, "season"))}, want: "leaderboard season"},
		{name: "bad leaderboard scope", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("leaderboard", opt("scope", tString, "forever"))}, wantErr: "scope must be one of season"},
		{name: "schedule list", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("schedule", tGroup, nil, sub("list"))}, want: "schedule list"},
		{name: "rsvp", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("schedule", tGroup, nil, sub("rsvp", opt("answer", tString, "maybe")))}, want: "rsvp maybe"},

		{name: "no subcommand", opts: nil, wantErr: "Pick one of the /poker subcommands"},
		{name: "unknown subcommand", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("cheat")}, wantErr: `/poker has no subcommand "cheat"`},
		{name: "unknown option", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("join", opt("seat", tInt, 3.0))}, wantErr: `/poker join has no option "seat"`},
		{name: "amount sent as text", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("raise", opt("to", tString, "60"))}, wantErr: "/poker raise to must be a whole number of chips, 1 or more"},
		{name: "amount not whole", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("bet", opt("amount", tInt, 12.5))}, wantErr: "must be a whole number of chips"},
		{name: "amount zero", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("join", opt("amount", tInt, 0.0))}, wantErr: "1 or more"},
		{name: "amount negative", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("rebuy", opt("amount", tInt, -5.0))}, wantErr: "1 or more"},
		{name: "amount missing", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("raise")}, wantErr: "/poker raise needs the to option"},
		{name: "count not whole", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("hands", tGroup, nil, sub("history", opt("back", tInt, 2.5)))}, wantErr: "/poker hands history back must be a whole number, from 1 to 100"},
		{name: "count above its maximum", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("start", opt("seats", tInt, 11.0))}, wantErr: "/poker start seats must be a whole number, from 2 to 10"},
		{name: "negative ante", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("set", opt("ante", tInt, -1.0))}, wantErr: "/poker set ante must be a whole number of chips, 0 or more"},
		{name: "variant not a choice", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("start", opt("variant", tString, "omaha"))}, wantErr: "must be one of no-limit, pot-limit, fixed-limit"},
		// One blind alone is the dealer's to refuse (bot/table's settings), as when typed.
		{name: "only one blind", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("start", opt("big_blind", tInt, 20.0))}, want: "start big_blind=20"},
		{name: "kick a non-user", opts: []*discordgo.ApplicationCommandInteractionDataOption{sub("kick", opt("player", tString, "@bob"))}, wantErr: "must be a member of this server"},
		{name: "group without subcommand", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("schedule", tGroup, nil)}, wantErr: "Pick one of the /poker schedule subcommands"},
		{name: "subcommand sent as a plain option", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("fold", tString, "x")}, wantErr: "/poker fold is a subcommand"},
		{name: "empty schedule text", opts: []*discordgo.ApplicationCommandInteractionDataOption{opt("schedule", tGroup, nil, sub("add", opt("when", tString, "   ")))}, wantErr: "/poker schedule add when must be a short line of text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CommandText(discordgo.ApplicationCommandInteractionData{Name: "poker", Options: tt.opts})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("CommandText() = %q, %v; want error containing %q", got, err, tt.wantErr)
				}
				if ok := isInputError(err); !ok {
					t.Errorf("error %T is not written for the user", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("CommandText() error = %v", err)
			}
			if got != tt.want {
				t.Errorf("CommandText() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSlashCommandWho(t *testing.T) {
	data := discordgo.ApplicationCommandInteractionData{Name: "poker", Options: []*discordgo.ApplicationCommandInteractionDataOption{sub("chips")}}
	tests := []struct {
		name    string
		i       discordgo.Interaction
		want    bot.Command
		wantErr string
	}{
		{name: "member with nickname", i: discordgo.Interaction{GuildID: "G", ChannelID: "C",
			Member: &discordgo.Member{Nick: "Ace", User: &discordgo.User{ID: "1", Username: "alice"}}},
			want: bot.Command{Platform: "discord", Workspace: "G", Channel: "C", User: "1", UserName: "Ace", Text: "chips"}},
		{name: "member with global name", i: discordgo.Interaction{GuildID: "G", ChannelID: "C",
			Member: &discordgo.Member{User: &discordgo.User{ID: "2", Username: "bob", GlobalName: "Bob B"}}},
			want: bot.Command{Platform: "discord", Workspace: "G", Channel: "C", User: "2", UserName: "Bob B", Text: "chips"}},
		{name: "server manager is admin", i: discordgo.Interaction{GuildID: "G", ChannelID: "C",
			Member: &discordgo.Member{Permissions: discordgo.PermissionManageGuild, User: &discordgo.User{ID: "3", Username: "carol"}}},
			want: bot.Command{Platform: "discord", Workspace: "G", Channel: "C", User: "3", UserName: "carol", Admin: true, Text: "chips"}},
		{name: "plain member is not admin", i: discordgo.Interaction{GuildID: "G", ChannelID: "C",
			Member: &discordgo.Member{Permissions: discordgo.PermissionSendMessages, User: &discordgo.User{ID: "4", Username: "dan"}}},
			want: bot.Command{Platform: "discord", Workspace: "G", Channel: "C", User: "4", UserName: "dan", Text: "chips"}},
		{name: "markdown and mentions in a name print as written", i: discordgo.Interaction{GuildID: "G", ChannelID: "C",
			Member: &discordgo.Member{Nick: "*x*_<@5>`|#[a]~\\", User: &discordgo.User{ID: "5", Username: "eve"}}},
			want: bot.Command{Platform: "discord", Workspace: "G", Channel: "C", User: "5", UserName: `\*x\*\_\<@5\>` + "\\`" + `\|\#\[a\]\~\\`, Text: "chips"}},
		{name: "direct message is refused", i: discordgo.Interaction{ChannelID: "D", User: &discordgo.User{ID: "1", Username: "alice"}},
			wantErr: "not in a direct message"},
		{name: "no user at all", i: discordgo.Interaction{GuildID: "G", ChannelID: "C"}, wantErr: "could not tell who you are"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.i.Type = discordgo.InteractionApplicationCommand
			tt.i.Data = data
			got, err := SlashCommand(&tt.i)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("SlashCommand() error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("SlashCommand() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func member(id string) *discordgo.Member {
	return &discordgo.Member{User: &discordgo.User{ID: id, Username: "user" + id}}
}

// clickOn finds the button labelled label in comps and clicks it as user.
func clickOn(t *testing.T, comps []discordgo.MessageComponent, label, user string) *discordgo.Interaction {
	t.Helper()
	for _, row := range comps {
		for _, c := range row.(discordgo.ActionsRow).Components {
			if b := c.(discordgo.Button); b.Label == label {
				return &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, GuildID: "G", ChannelID: "C", Member: member(user),
					Data: discordgo.MessageComponentInteractionData{CustomID: b.CustomID, ComponentType: discordgo.ButtonComponent}}
			}
		}
	}
	t.Fatalf("no button %q", label)
	return nil
}

func TestButtonClicks(t *testing.T) {
	buttons := []render.Button{
		{Label: "Fold", Command: "fold", Token: "h7.3", Style: render.Danger},
		{Label: "Call 20", Command: "call", Token: "h7.3", Style: render.Primary},
		{Label: "Odd token", Command: "check", Token: "a|b%7Cc%", Style: render.Secondary},
		{Label: "RSVP yes", Command: "rsvp yes", Token: "", Style: render.Success},
	}
	comps, err := Components(buttons)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range buttons {
		cmd, modal, err := ComponentClick(clickOn(t, comps, b.Label, "42"))
		if err != nil || modal != nil {
			t.Fatalf("click %q: modal %v, error %v", b.Label, modal, err)
		}
		if cmd.Text != b.Command || cmd.Token != b.Token || cmd.User != "42" || cmd.Channel != "C" || cmd.Workspace != "G" {
			t.Errorf("click %q = %+v, want text %q token %q from user 42 in C", b.Label, cmd, b.Command, b.Token)
		}
	}
	styles := map[string]discordgo.ButtonStyle{"Fold": discordgo.DangerButton, "Call 20": discordgo.PrimaryButton, "Odd token": discordgo.SecondaryButton, "RSVP yes": discordgo.SuccessButton}
	for _, c := range comps[0].(discordgo.ActionsRow).Components {
		b := c.(discordgo.Button)
		if b.Style != styles[b.Label] {
			t.Errorf("%s has style %d, want %d", b.Label, b.Style, styles[b.Label])
		}
	}
}

func TestButtonLimits(t *testing.T) {
	var many []render.Button
	for n := range 27 {
		many = append(many, render.Button{Label: "B" + strconv.Itoa(n), Command: "call", Token: "t"})
	}
	comps, err := Components(many)
	if err == nil || !strings.Contains(err.Error(), "2 buttons do not fit") {
		t.Errorf("27 buttons: error = %v, want a note that 2 do not fit", err)
	}
	if len(comps) != 5 {
		t.Fatalf("got %d rows, want 5", len(comps))
	}
	for _, r := range comps {
		if n := len(r.(discordgo.ActionsRow).Components); n != 5 {
			t.Errorf("row has %d buttons, want 5", n)
		}
	}

	long := []render.Button{
		{Label: "Fine", Command: "fold", Token: "t1"},
		{Label: strings.Repeat("L", 120), Command: "call", Token: strings.Repeat("x", 120)},
	}
	comps, err = Components(long)
	if err == nil || !strings.Contains(err.Error(), "Discord allows 100") {
		t.Errorf("overlong custom ID: error = %v", err)
	}
	if len(comps) != 1 || len(comps[0].(discordgo.ActionsRow).Components) != 1 {
		t.Fatalf("want only the encodable button, got %+v", comps)
	}
	comps, _ = Components([]render.Button{{Label: strings.Repeat("é", 100), Command: "fold", Token: "t"}})
	b := comps[0].(discordgo.ActionsRow).Components[0].(discordgo.Button)
	if n := utf8.RuneCountInString(b.Label); n > maxButtonLabel {
		t.Errorf("label has %d characters, Discord allows %d", n, maxButtonLabel)
	}
	for _, r := range comps {
		for _, c := range r.(discordgo.ActionsRow).Components {
			if id := c.(discordgo.Button).CustomID; len(id) > 100 {
				t.Errorf("custom_id %q is longer than 100", id)
			}
		}
	}
}

// modalReply fills in the text field of a modal the way Discord sends it back.
func modalReply(data *discordgo.InteractionResponseData, user, typed string) *discordgo.Interaction {
	return &discordgo.Interaction{Type: discordgo.InteractionModalSubmit, GuildID: "G", ChannelID: "C", Member: member(user),
		Data: discordgo.ModalSubmitInteractionData{CustomID: data.CustomID, Components: []discordgo.MessageComponent{
			&discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: amountInput, Value: typed}}},
		}}}
}

func TestRaiseModal(t *testing.T) {
	comps, err := Components([]render.Button{{Label: "Raise…", Command: "raise", Token: "h9.4", Amount: true, Min: 40, Max: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	cmd, modal, err := ComponentClick(clickOn(t, comps, "Raise…", "7"))
	if err != nil || modal == nil {
		t.Fatalf("clicking Raise…: modal %v, error %v", modal, err)
	}
	// Before the form opens, the dealer is only asked whether user 7 may raise with this button.
	if !cmd.Probe || cmd.Text != "raise" || cmd.Token != "h9.4" || cmd.User != "7" || cmd.Channel != "C" || cmd.Workspace != "G" || cmd.Platform != "discord" {
		t.Errorf("the click's command = %+v, want a probe of raise with token h9.4 from user 7 in C", cmd)
	}
	in := modal.Components[0].(discordgo.ActionsRow).Components[0].(discordgo.TextInput)
	for _, s := range []string{in.Label, in.Placeholder} {
		if !strings.Contains(s, "40") || !strings.Contains(s, "1000") {
			t.Errorf("%q does not state the range 40 to 1000", s)
		}
	}
	if utf8.RuneCountInString(in.Label) > maxInputLabel || utf8.RuneCountInString(modal.Title) > maxModalTitle || len(modal.CustomID) > maxCustomID {
		t.Errorf("modal exceeds Discord's limits: title %q label %q id %q", modal.Title, in.Label, modal.CustomID)
	}

	tests := []struct {
		typed, want, wantErr string
	}{
		{typed: "60", want: "raise 60"},
		{typed: " 1,000 ", want: "raise 1000"},
		{typed: "5000", want: "raise 5000"}, // out of range: the dealer says so, with the current range
		{typed: "sixty", wantErr: "Type the amount as a whole number of chips"},
		{typed: "12.5", wantErr: "Type the amount as a whole number of chips"},
		{typed: "-3", want: "raise -3"}, // below 1: the dealer says so, as for a typed raise
		{typed: "0", want: "raise 0"},
		{typed: "", wantErr: "Type the amount as a whole number of chips"},
	}
	for _, tt := range tests {
		got, err := ModalSubmit(modalReply(modal, "7", tt.typed))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("typed %q: %+v, %v; want error %q", tt.typed, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got.Text != tt.want || got.Token != "h9.4" || got.User != "7" {
			t.Errorf("typed %q: %+v, %v; want %q with token h9.4 from user 7", tt.typed, got, err, tt.want)
		}
	}

	huge, _ := Components([]render.Button{{Label: "Bet…", Command: "bet", Token: "t", Amount: true, Min: 1, Max: 1 << 62}})
	_, modal, err = ComponentClick(clickOn(t, huge, "Bet…", "7"))
	if err != nil {
		t.Fatal(err)
	}
	in = modal.Components[0].(discordgo.ActionsRow).Components[0].(discordgo.TextInput)
	if utf8.RuneCountInString(in.Label) > maxInputLabel || !strings.Contains(in.Placeholder, strconv.FormatInt(1<<62, 10)) {
		t.Errorf("huge range: label %q placeholder %q", in.Label, in.Placeholder)
	}
}

func TestBadCustomIDs(t *testing.T) {
	for _, id := range []string{"", "other-bot:thing", "pk1|b|tok", "pk1|x|t|fold", "pk1|a|x|9|t|raise", "pk1|a|1|9|t|", "pk1|m|1|2|t|raise"} {
		i := &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, GuildID: "G", ChannelID: "C", Member: member("1"),
			Data: discordgo.MessageComponentInteractionData{CustomID: id}}
		cmd, modal, err := ComponentClick(i)
		if err == nil || modal != nil || cmd.Text != "" {
			t.Errorf("custom_id %q: %+v %v %v, want a refusal", id, cmd, modal, err)
			continue
		}
		if !strings.Contains(err.Error(), "use /poker instead") {
			t.Errorf("custom_id %q: error %q does not say what to do", id, err)
		}
	}
}

func TestSplitContent(t *testing.T) {
	var lines []string
	for n := range 300 {
		lines = append(lines, "line "+strconv.Itoa(n)+" ♠♥♦♣ 🂡")
	}
	tests := []struct {
		name   string
		text   string
		pieces int
	}{
		{name: "empty", text: "", pieces: 0},
		{name: "short", text: "Alice raises to 60.", pieces: 1},
		{name: "exactly the limit", text: strings.Repeat("a", 2000), pieces: 1},
		{name: "one over", text: strings.Repeat("a", 2001), pieces: 2},
		{name: "many lines with emoji", text: strings.Join(lines, "\n"), pieces: -1},
		{name: "astral emoji count twice", text: strings.Repeat("🂡", 1500), pieces: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SplitContent(tt.text)
			if tt.pieces >= 0 && len(got) != tt.pieces {
				t.Errorf("%d pieces, want %d", len(got), tt.pieces)
			}
			total := 0
			for _, p := range got {
				if n := utf16Len(p); n > 2000 || n == 0 {
					t.Errorf("piece of %d characters", n)
				}
				if !utf8.ValidString(p) {
					t.Errorf("piece cut inside a character")
				}
				total += utf8.RuneCountInString(strings.ReplaceAll(strings.ReplaceAll(p, "\n", ""), " ", ""))
			}
			if want := utf8.RuneCountInString(strings.ReplaceAll(strings.ReplaceAll(tt.text, "\n", ""), " ", "")); total != want {
				t.Errorf("pieces hold %d non-space characters, text has %d: something was lost", total, want)
			}
		})
	}
	// Lines are not broken in the middle when they need not be.
	for _, p := range SplitContent(strings.Join(lines, "\n")) {
		if !strings.HasPrefix(p, "line ") || !strings.HasSuffix(p, "🂡") {
			t.Errorf("piece broke a line: starts %q, ends %q", p[:10], p[len(p)-10:])
		}
	}
}

func TestReplyMessages(t *testing.T) {
	hole := render.Message{Text: "Your cards: A♠ K♠", Private: true, Buttons: []render.Button{{Label: "Show my cards", Command: "cards", Token: "x"}}}
	tests := []struct {
		name      string
		reply     bot.Reply
		contents  []string
		buttonsOn int // index of the message carrying buttons, -1 for none
	}{
		{name: "empty reply still says something", reply: bot.Reply{}, contents: []string{emptyReply}, buttonsOn: -1},
		{name: "error text", reply: bot.Reply{Text: "It is Bob's turn, not yours.", IsError: true}, contents: []string{"It is Bob's turn, not yours."}, buttonsOn: -1},
		{name: "buttons only", reply: bot.Reply{Buttons: []render.Button{{Label: "Fold", Command: "fold", Token: "t"}}}, contents: []string{""}, buttonsOn: 0},
		{name: "extra private message after the reply", reply: bot.Reply{Text: "You call 20.", Extra: []render.Message{hole}},
			contents: []string{"You call 20.", hole.Text}, buttonsOn: 1},
		{name: "long text is split, buttons last", reply: bot.Reply{Text: strings.Repeat("word ", 900), Buttons: []render.Button{{Label: "OK", Command: "table"}}},
			contents: nil, buttonsOn: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReplyMessages(tt.reply)
			if err != nil {
				t.Fatal(err)
			}
			if tt.contents != nil {
				if len(got) != len(tt.contents) {
					t.Fatalf("%d messages, want %d", len(got), len(tt.contents))
				}
				for n, m := range got {
					if m.Content != tt.contents[n] {
						t.Errorf("message %d = %q, want %q", n, m.Content, tt.contents[n])
					}
				}
			}
			for n, m := range got {
				if m.Flags&discordgo.MessageFlagsEphemeral == 0 {
					t.Errorf("message %d is not ephemeral: everyone would see it", n)
				}
				if has := len(m.Components) > 0; has != (n == tt.buttonsOn) {
					t.Errorf("message %d has buttons = %v", n, has)
				}
				if utf16Len(m.Content) > 2000 {
					t.Errorf("message %d is too long", n)
				}
			}
		})
	}
}

func TestChannelMessages(t *testing.T) {
	msgs, err := ChannelMessages(render.Message{Text: "@everyone Alice raises to 60. Bob to act.", Buttons: []render.Button{{Label: "Fold", Command: "fold", Token: "t"}}})
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%d messages, error %v", len(msgs), err)
	}
	m := msgs[0]
	if m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Errorf("a channel post cannot be ephemeral")
	}
	if m.AllowedMentions == nil || len(m.AllowedMentions.Parse) != 1 || m.AllowedMentions.Parse[0] != discordgo.AllowedMentionTypeUsers {
		t.Errorf("allowed mentions = %+v, want users only (no @everyone)", m.AllowedMentions)
	}
	if len(m.Components) != 1 {
		t.Errorf("buttons missing")
	}
	if msgs, _ := ChannelMessages(render.Message{}); len(msgs) != 0 {
		t.Errorf("an empty message became %d posts", len(msgs))
	}
}
