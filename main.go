// Command netcubes shows how to network a physics simulation: a 901-cube
// world runs on a "left" sender and is rebuilt on a "right" receiver only
// from packets that crossed a simulated lossy link. Keys switch strategies
// live; H shows them all.
//
// This file stays thin, as Ebitengine's examples are: the flags and the
// wiring are package launch's, where the tests drive them.
package main

import "netcubes/ui/launch"

func main() { launch.Main() }
