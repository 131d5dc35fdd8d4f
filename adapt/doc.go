// Package adapt is link adaptation: how a sender and a receiver adjust to
// the path they measure, with nothing but what they already see (their
// own packets, the acks, the frames that arrive).
//
//   - estimator.go: congestion avoidance. An Estimator turns per-tick
//     samples of a sender's packets into the rate the path can carry and a
//     line saying why ("queue building (180 ms): 380 → 240 kbit/s"); its
//     design note is the one-slide summary of the LEDBAT, GCC and BBR ideas
//     it uses.
//   - tracker.go: the sender's memory of its packets (sent, acked, judged
//     lost), which makes those samples.
//   - playout.go: playout delays sized from measured jitter (Jitter,
//     Losses, the two formulas and the hysteresis that keeps them from
//     hunting).
//   - trace.go: a run recorded tick by tick, and the figures the bench's
//     adaptation tables print from it (queueing delay against the path's
//     lowest round trip, goodput, time to recover).
//   - capstep.go: the cap step those tables measure congestion avoidance
//     on (CapTimeline: the bottleneck preset's phases, in ticks, and its
//     path), whole or squeezed into a shorter bench run;
//     strategy.CapStepSeconds draws a run of it second by second.
//   - keys.go: the two keys every adapting strategy binds (F8, F6).
//
// Used by the snapshot strategies (send rate, interpolation delay) and
// state synchronization (bandwidth budget, jitter buffer). It imports
// package wire, and package link for the cap step's path only; everything
// is integer arithmetic on ticks, so adaptive runs repeat bit for bit.
//
// The tests: estimator_test.go (synthetic ack streams: a clean link, a
// queue building, loss bursts with and without a queue, a longer route,
// demand-limited senders, determinism), loop_test.go (the estimator in a
// closed loop over package link's bottlenecks), tracker_test.go,
// playout_test.go, trace_test.go, capstep_test.go, and FuzzEstimator (any samples: no
// panic, the rate within its bounds).
package adapt
