package adapt

// The keys of the two adaptations, the same in every strategy that adapts
// (the snapshot strategies and state synchronization): one key per idea,
// whatever the strategy, so a presenter learns them once.
const (
	CongestionKey = "F8" // congestion avoidance on / off
	PlayoutKey    = "F6" // playout delay sized from measured jitter / fixed
)
