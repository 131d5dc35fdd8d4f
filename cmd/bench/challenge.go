package main

import (
	"bufio"
	"fmt"
	"os"

	"netcubes/snapshot"
)

// runChallenge writes the script's run in the 2015 challenge layout to
// export (when set), then codes the file challenge (when set) at levels
// 8-14 (snapshot.ChallengeTable). A file that is not in the layout is one
// line naming the frame, cube and field (snapshot.ReadChallenge).
func runChallenge(b *bench, export, challenge string) error {
	if export != "" {
		st := snapshot.New(snapshot.DefaultConfig())
		s, err := b.NewRun(b.preset.Config(), st)
		if err != nil {
			return err
		}
		frames := [][]snapshot.Cube{snapshot.ChallengeFrame(s.Left())}
		b.Play("export", export, s, func() { frames = append(frames, snapshot.ChallengeFrame(s.Left())) })
		b.progress.done()
		f, err := os.Create(export)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		if err := snapshot.WriteChallenge(w, frames); err != nil {
			f.Close()
			return err
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintf(b.out, "wrote %d frames (the initial one and %d ticks) of %d cubes to %s\n", len(frames), len(frames)-1, snapshot.NumChallengeCubes, export)
	}
	if challenge == "" {
		return nil
	}
	f, err := os.Open(challenge)
	if err != nil {
		return err
	}
	defer f.Close()
	frames, err := snapshot.ReadChallenge(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("%s: %w", challenge, err)
	}
	fmt.Fprintf(b.out, "\n== the 2015 challenge layout: %s ==\n", challenge)
	t, err := snapshot.ChallengeTable(frames)
	if err != nil {
		return err
	}
	return b.Print(t)
}
