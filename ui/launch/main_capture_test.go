package launch

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// captureTrack is a short talk track with every kind of thing a capture
// draws: the katamari drive, a terrible link, a two-line caption and an
// outage.
const captureTrack = `preset terrible
0 play katamari
0 caption "hello there" "second line"
1s outage 1s
`

// captureHash reads the world hash a capture's summary line ends with.
var captureHash = regexp.MustCompile(`captured (\d+) frames of (\d+)×(\d+) .* left world hash at frame (\d+): ([0-9a-f]{16})`)

// TestCaptureIsTheRun: -capture of a 120-tick scripted run writes 120
// numbered PNGs whose last is, pixel for pixel, the -screenshot of the same
// run; -video FILE.gif writes a GIF the standard library decodes (every
// third frame, 40 of them, at the window's size); the progress line
// counts to 120 of 120; and a capture at another window size is the same
// run (the world hash it reports is the same).
func TestCaptureIsTheRun(t *testing.T) {
	t.Parallel() // the app runs in processes of its own
	dir := t.TempDir()
	script := filepath.Join(dir, "talk.txt")
	if err := os.WriteFile(script, []byte(captureTrack), 0o644); err != nil {
		t.Fatal(err)
	}
	frames := filepath.Join(dir, "frames")
	clip := filepath.Join(dir, "clip.gif")
	shot := filepath.Join(dir, "shot.png")
	base := append(smallWindow, "-script", script, "-frames", "120")
	out, err := runApp(t, nil, append(base, "-capture", frames, "-video", clip)...)
	if err != nil {
		t.Fatalf("capture failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "capturing: frame 120 of 120 (100 %)") {
		t.Errorf("no progress line to the end:\n%s", out)
	}
	m := captureHash.FindStringSubmatch(out)
	if m == nil || m[1] != "120" || m[2] != "480" || m[3] != "270" || m[4] != "120" {
		t.Fatalf("the summary says %q, want 120 frames of 480×270 and the hash at frame 120:\n%s", m, out)
	}
	names, _ := filepath.Glob(filepath.Join(frames, "frame-*.png"))
	if len(names) != 120 || filepath.Base(names[119]) != "frame-000120.png" {
		t.Fatalf("%d PNGs (the last %v), want frame-000001.png … frame-000120.png", len(names), names[len(names)-1:])
	}
	if out, err := runApp(t, nil, append(base, "-screenshot", shot)...); err != nil {
		t.Fatalf("screenshot failed: %v\n%s", err, out)
	}
	last, want := loadPNG(t, names[119]), loadPNG(t, shot)
	if d := pixelsDiffer(last, want); d != "" {
		t.Errorf("the capture's frame 120 is not the screenshot of tick 120: %s", d)
	}
	if d := pixelsDiffer(loadPNG(t, names[0]), last); d == "" {
		t.Error("frame 1 is frame 120: the capture does not move")
	}

	f, err := os.Open(clip)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(f)
	f.Close()
	if err != nil {
		t.Fatalf("the GIF does not decode: %v", err)
	}
	if len(g.Image) != 40 || g.Config.Width != 480 || g.Config.Height != 270 {
		t.Errorf("the GIF has %d frames of %dx%d, want 40 of 480x270", len(g.Image), g.Config.Width, g.Config.Height)
	}

	// The same run captured at another size: the same world.
	other := filepath.Join(dir, "other")
	out2, err := runApp(t, nil, "-mute", "-antialias=false", "-width", "320", "-height", "240",
		"-script", script, "-frames", "120", "-capture", other)
	if err != nil {
		t.Fatalf("capture at 320x240 failed: %v\n%s", err, out2)
	}
	if m2 := captureHash.FindStringSubmatch(out2); m2 == nil || m2[5] != m[5] {
		t.Errorf("at 320x240 the capture reports %q, at 480x270 hash %s", m2, m[5])
	}
}

// TestVideoWithoutFFmpeg: -video FILE.mp4 without ffmpeg says so in one
// line, naming the GIF and PNG alternatives, and exits 2 before running.
func TestVideoWithoutFFmpeg(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err == nil {
		t.Skip("ffmpeg is installed: the message is for machines without it")
	}
	t.Parallel()
	mp4 := filepath.Join(t.TempDir(), "talk.mp4")
	out, err := runApp(t, nil, append(smallWindow, "-script", "katamari", "-video", mp4)...)
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want 2:\n%s", err, out)
	}
	want := fmt.Sprintf("-video %s needs ffmpeg, which is not installed", mp4)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 1 || !strings.Contains(out, want) ||
		!strings.Contains(out, ".gif") || !strings.Contains(out, "-capture DIR") {
		t.Errorf("the message is not one line naming ffmpeg and the alternatives:\n%s", out)
	}
}

// TestVideoThroughFFmpeg: where ffmpeg is installed, -video FILE.mp4
// pipes every tick of the run to it: the file holds exactly the run's
// frames, at the window's size, 60 a second (counted by ffprobe).
func TestVideoThroughFFmpeg(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("no ffmpeg here: TestVideoWithoutFFmpeg checks the message instead")
	}
	probe, err := exec.LookPath("ffprobe")
	if err != nil {
		t.Skip("ffmpeg without ffprobe: nothing to count the frames with")
	}
	t.Parallel()
	mp4 := filepath.Join(t.TempDir(), "talk.mp4")
	out, err := runApp(t, nil, append(smallWindow, "-script", "katamari", "-frames", "90", "-video", mp4)...)
	if err != nil {
		t.Fatalf("the video failed: %v\n%s", err, out)
	}
	got, err := exec.Command(probe, "-v", "error", "-select_streams", "v:0", "-count_frames",
		"-show_entries", "stream=codec_name,width,height,r_frame_rate,nb_read_frames", "-of", "csv=p=0", mp4).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	if want := "h264,480,270,60/1,90"; strings.TrimSpace(string(got)) != want {
		t.Errorf("ffprobe says %q, want %q", strings.TrimSpace(string(got)), want)
	}
}

// pixelsDiffer describes the first pixel where a and b differ ("" when
// they are the same picture).
func pixelsDiffer(a, b image.Image) string {
	if a.Bounds() != b.Bounds() {
		return fmt.Sprintf("sizes %v and %v", a.Bounds(), b.Bounds())
	}
	r := a.Bounds()
	n := 0
	first := ""
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, aa := a.At(x, y).RGBA()
			br, bg, bb, ba := b.At(x, y).RGBA()
			if ar != br || ag != bg || ab != bb || aa != ba {
				if n == 0 {
					first = fmt.Sprintf("(%d,%d) %v vs %v", x, y, a.At(x, y), b.At(x, y))
				}
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d pixels, the first at %s", n, first)
}

// TestCaptureWithoutDisplayKeepsTheFile: -video or -capture with no
// display fails in one line (no "captured 0 frames" before it) and leaves
// a video already at that path as it was: a failed run never replaces a
// good file, nor leaves a half-written one beside it, nor makes the
// -capture directory.
func TestCaptureWithoutDisplayKeepsTheFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only X11 needs $DISPLAY: macOS and Windows always have a window system")
	}
	t.Parallel()
	dir := t.TempDir()
	good := []byte("GIF89a: the talk's good clip")
	gif := filepath.Join(dir, "talk.gif")
	if err := os.WriteFile(gif, good, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runApp(t, []string{"DISPLAY=", "WAYLAND_DISPLAY="},
		append(smallWindow, "-frames", "30", "-video", gif, "-capture", filepath.Join(dir, "png"))...)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1:\n%s", err, out)
	}
	if strings.Contains(out, "captured") || !strings.HasPrefix(out, "netcubes: no display") {
		t.Errorf("want one line saying there is no display, got:\n%s", out)
	}
	if got, err := os.ReadFile(gif); err != nil || !bytes.Equal(got, good) {
		t.Errorf("the good file was replaced: %q, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "talk.gif" {
			t.Errorf("a failed run left %s behind", e.Name())
		}
	}
}
