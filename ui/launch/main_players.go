package launch

import (
	"flag"
	"strings"

	"netcubes/cubes"
	"netcubes/link"
)

// playersFlags adds the several-players flags to fs; the function it
// returns applies them to the options once fs is parsed: -players, -bots,
// and -preset given as a list (one preset per client).
func playersFlags(fs *flag.FlagSet) func(o *options, presets string) error {
	players := fs.Int("players", 1, "players in the world, 1 to 8: you drive player 1, bots drive the others (Tab shows each client's screen)")
	bots := fs.String("bots", "", "bots driving players 2..: a comma-separated list of "+strings.Join(cubes.BotNames(), ", ")+
		" taken in turn (default push,gather,wander)")
	return func(o *options, presets string) error {
		if *players < 1 || *players > cubes.MaxPlayers {
			return usagef("-players must be 1..%d, got %d", cubes.MaxPlayers, *players)
		}
		cfg := &o.ui.Session
		cfg.World.Players = *players
		if *bots != "" {
			kinds, err := cubes.ParseBots(*bots)
			if err != nil {
				return usagef("-bots: %v", err)
			}
			cfg.Bots = kinds
		}
		// "-preset lan,mobile,terrible": client 1 on the LAN, client 2 on
		// mobile, client 3 (and any after it) on terrible.
		names := strings.Split(presets, ",")
		if len(names) < 2 {
			return nil
		}
		cfg.ClientLinks = nil
		o.ui.Presets = nil
		for k := range max(len(names), *players) {
			name := strings.TrimSpace(names[min(k, len(names)-1)])
			p, ok := link.PresetByName(name)
			if !ok {
				return usagef("unknown -preset %q (presets: %s)", name, presetNames())
			}
			cfg.ClientLinks = append(cfg.ClientLinks, p.Pair())
			o.ui.Presets = append(o.ui.Presets, p.String())
		}
		return nil
	}
}
