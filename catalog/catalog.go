// Package catalog is the one place that lists the networking strategies
// the app offers, in menu order: the number keys, the -strategy flag, the
// help overlay and the headless bench all iterate this list. Adding a
// strategy is its own package plus one line here.
package catalog

import (
	"strconv"

	"netcubes/authority"
	"netcubes/lockstep"
	"netcubes/predict"
	"netcubes/rollback"
	"netcubes/snapshot"
	"netcubes/statesync"
	"netcubes/strategy"
)

// All returns a new instance of every strategy, in menu order (key 1
// first). Each call builds fresh instances with their default settings.
func All() []strategy.Strategy {
	return []strategy.Strategy{
		snapshot.NewInterpolation(),
		snapshot.NewCompression(),
		statesync.New(statesync.DefaultConfig()),
		lockstep.New(lockstep.DefaultConfig()),
		predict.New(predict.DefaultConfig()),
		authority.New(authority.DefaultConfig()),
		rollback.New(rollback.DefaultConfig()),
	}
}

// IDs are the strategies' command-line names, in menu order.
func IDs() []string {
	var ids []string
	for _, st := range All() {
		ids = append(ids, st.ID())
	}
	return ids
}

// Find returns the index in All of the strategy whose ID is name, or whose
// number key (1-based position) it is.
func Find(list []strategy.Strategy, name string) (int, bool) {
	for i, st := range list {
		if st.ID() == name || name == strconv.Itoa(i+1) {
			return i, true
		}
	}
	return 0, false
}

// StartingWith returns a new instance of every strategy (All) and the
// index of the one named name (Find): what a session that starts on it is
// given (game.Config's Strategies and Start). False when none is.
func StartingWith(name string) ([]strategy.Strategy, int, bool) {
	list := All()
	i, ok := Find(list, name)
	return list, i, ok
}
