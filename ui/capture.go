package ui

// Design note: capture. A talk needs the run as a clip for its slides, and
// a clip must be the run itself, not a screen recording of a machine that
// drops frames: -capture and -video draw every tick of the run once and
// hand it on, frame-exactly. Update does not start the next tick until
// Draw has taken the last one, so the run is the same whatever the pace
// (a scripted or recorded run goes as fast as the machine draws; a live
// one at most at the display's rate), and the session never sees the
// capture: its hashes are the live run's. Frames are written by a
// goroutine of their own (a PNG each, raw pixels into ffmpeg, or the
// frames of a GIF), behind a short queue, so encoding overlaps drawing.

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/control"
	"netcubes/internal/clip"
)

// Capture says where a run's frames go.
type Capture struct {
	// Dir receives every tick as a numbered PNG: frame-000001.png, …
	Dir string
	// Video receives the run as a video: a .gif is written by the app
	// itself (GIFEvery), anything else (.mp4, .webm, .mkv) through ffmpeg.
	Video string
	// GIFEvery keeps every Nth tick in a GIF (0: 3, 20 frames a second;
	// GIF delays are in hundredths, so 60 a second is not an option).
	GIFEvery int
	// Progress receives a progress line while capturing (nil: none).
	Progress io.Writer
}

// On reports whether anything is captured.
func (c Capture) On() bool { return c.Dir != "" || c.Video != "" }

// IsGIF reports whether the video is a GIF the app writes itself.
func IsGIF(path string) bool { return strings.EqualFold(filepath.Ext(path), ".gif") }

// CheckCapture reports, before a run, whether the capture can be written:
// the directory exists or could be made, the video's directory exists, and
// ffmpeg is there for a video that is not a GIF. Its errors are one line.
// It touches nothing: the directory is made when the first frame is
// written, so a run that cannot open a window leaves no trace.
func CheckCapture(c Capture) error {
	if c.Dir != "" {
		if err := canMakeDir(c.Dir); err != nil {
			return fmt.Errorf("-capture: cannot make the directory %s: %v", c.Dir, err)
		}
	}
	if c.Video == "" {
		return nil
	}
	if fi, err := os.Stat(filepath.Dir(c.Video)); err != nil || !fi.IsDir() {
		return fmt.Errorf("-video: the directory %s does not exist", filepath.Dir(c.Video))
	}
	if !IsGIF(c.Video) {
		if _, err := exec.LookPath("ffmpeg"); err != nil {
			return fmt.Errorf("-video %s needs ffmpeg, which is not installed: install it, or write a GIF (-video %s) or PNGs (-capture DIR)",
				c.Video, strings.TrimSuffix(c.Video, filepath.Ext(c.Video))+".gif")
		}
	}
	return nil
}

// canMakeDir reports whether MkdirAll(dir) could succeed, without making
// anything: dir is a directory, or its nearest existing ancestor is.
// (Whether that one is writable shows when the first frame is written.)
func canMakeDir(dir string) error {
	for p := dir; ; {
		fi, err := os.Stat(p)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", p)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return errors.Unwrap(err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// capturer takes the frames from Draw and writes them.
type capturer struct {
	o     Capture
	w, h  int
	taken int // ticks drawn and handed on

	frames chan capFrame
	free   chan *image.RGBA
	done   chan error

	ffmpeg *exec.Cmd
	pipe   io.WriteCloser
	gif    *clip.GIF
	// partial is where the video is written until the run ends well: a
	// failed run (no display, an error) must never replace a good file
	// at o.Video, so the video takes its name only once it is complete.
	partial string

	start    time.Time
	said     time.Time
	total    int  // frames expected (0: unknown)
	written  int  // read by the writer only
	dirMade  bool // the writer's: Dir is there
	finished bool
}

// capFrame is one tick's picture.
type capFrame struct {
	n   int
	img *image.RGBA
}

// captureQueue is how many frames may wait to be written.
const captureQueue = 4

// newCapturer opens the outputs for w×h frames (total: the frames
// expected, for the progress line; 0 when unknown).
func newCapturer(o Capture, w, h, total int) (*capturer, error) {
	c := &capturer{o: o, w: w, h: h, total: total, frames: make(chan capFrame, captureQueue),
		free: make(chan *image.RGBA, captureQueue+2), done: make(chan error, 1), start: time.Now()}
	if o.Video != "" {
		// Beside the file (a rename does not cross disks), with its
		// extension (ffmpeg picks the format by it), hidden.
		dir, base := filepath.Split(o.Video)
		c.partial = filepath.Join(dir, "."+strings.TrimSuffix(base, filepath.Ext(base))+".partial"+filepath.Ext(base))
	}
	switch {
	case o.Video == "":
	case IsGIF(o.Video):
		c.gif = clip.NewGIF(w, h, o.GIFEvery)
	default:
		cmd := exec.Command("ffmpeg", "-y", "-loglevel", "error",
			"-f", "rawvideo", "-pix_fmt", "rgba", "-s", fmt.Sprintf("%dx%d", w, h), "-framerate", "60", "-i", "-",
			"-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", c.partial)
		cmd.Stderr = os.Stderr
		pipe, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("-video: cannot start ffmpeg: %v", err)
		}
		c.ffmpeg, c.pipe = cmd, pipe
	}
	go c.write()
	return c, nil
}

// write writes the frames as they come, until the queue is closed.
func (c *capturer) write() {
	var first error
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	for f := range c.frames {
		if first == nil {
			first = c.writeOne(&enc, f)
		}
		c.written++
		c.progress(false)
		select {
		case c.free <- f.img:
		default:
		}
	}
	c.done <- first
}

func (c *capturer) writeOne(enc *png.Encoder, f capFrame) error {
	if c.o.Dir != "" {
		if !c.dirMade {
			// Made with the first frame, once a window has drawn it.
			if err := os.MkdirAll(c.o.Dir, 0o755); err != nil {
				return err
			}
			c.dirMade = true
		}
		out, err := os.Create(filepath.Join(c.o.Dir, fmt.Sprintf("frame-%06d.png", f.n)))
		if err != nil {
			return err
		}
		bw := bufio.NewWriterSize(out, 1<<20)
		if err := enc.Encode(bw, f.img); err != nil {
			out.Close()
			return err
		}
		if err := bw.Flush(); err != nil {
			out.Close()
			return err
		}
		if err := out.Close(); err != nil {
			return err
		}
	}
	if c.pipe != nil {
		if _, err := c.pipe.Write(f.img.Pix); err != nil {
			return fmt.Errorf("ffmpeg: %v", err)
		}
	}
	if c.gif != nil {
		c.gif.Add(f.n, f.img)
	}
	return nil
}

// progress writes the progress line, once a second (and at the end).
func (c *capturer) progress(last bool) {
	if c.o.Progress == nil {
		return
	}
	now := time.Now()
	if !last && now.Sub(c.said) < time.Second {
		return
	}
	c.said = now
	rate := float64(c.written) / max(now.Sub(c.start).Seconds(), 1e-9)
	line := fmt.Sprintf("capturing: frame %d", c.written)
	if c.total > 0 {
		line += fmt.Sprintf(" of %d (%.0f %%)", c.total, 100*float64(c.written)/float64(c.total))
	}
	line += fmt.Sprintf(", %.1f frames/s", rate)
	if c.total > c.written && rate > 0 {
		left := int(float64(c.total-c.written)/rate + 0.5)
		line += fmt.Sprintf(", %d:%02d to go", left/60, left%60)
	}
	end := "   \r"
	if last {
		end = "\n"
	}
	fmt.Fprint(c.o.Progress, line+end)
}

// take reads the screen of tick n and queues it.
func (c *capturer) take(screen *ebiten.Image, n int) {
	var img *image.RGBA
	select {
	case img = <-c.free:
	default:
		img = image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	}
	screen.ReadPixels(img.Pix)
	c.frames <- capFrame{n: n, img: img}
	c.taken = n
}

// close waits for every frame to be written and finishes the outputs:
// the video takes its name only if it holds at least one frame and
// nothing failed; otherwise the file at that name is left as it was.
func (c *capturer) close() error {
	if c.finished {
		return nil
	}
	err := c.stop()
	if c.gif != nil && err == nil {
		err = c.gif.Save(c.partial)
	}
	if err == nil && c.written == 0 {
		err = errors.New("no frame was drawn")
	}
	if c.partial != "" {
		if err == nil {
			err = os.Rename(c.partial, c.o.Video)
		}
		if err != nil {
			os.Remove(c.partial)
			err = fmt.Errorf("%v: %s left as it was", err, c.o.Video)
		}
	}
	c.progress(true)
	return err
}

// abort ends a capture whose run failed: the frames in flight are
// dropped with the partial video, and nothing is said or renamed.
func (c *capturer) abort() {
	if c.finished {
		return
	}
	c.stop()
	if c.partial != "" {
		os.Remove(c.partial)
	}
}

// stop closes the queue and waits for the writer (and ffmpeg) to end.
func (c *capturer) stop() error {
	c.finished = true
	close(c.frames)
	err := <-c.done
	if c.pipe != nil {
		if cerr := c.pipe.Close(); err == nil {
			err = cerr
		}
		if werr := c.ffmpeg.Wait(); err == nil && werr != nil {
			err = fmt.Errorf("ffmpeg: %v", werr)
		}
	}
	return err
}

// Summary says what was captured and the run's state hash at the end, so
// a capture can be compared with a run that was not captured.
func (c *capturer) summary(d *control.Director) string {
	var where []string
	if c.o.Dir != "" {
		where = append(where, c.o.Dir+"/frame-*.png")
	}
	if c.o.Video != "" {
		where = append(where, c.o.Video)
	}
	secs := time.Since(c.start).Seconds()
	return fmt.Sprintf("captured %d frames of %d×%d to %s in %.1f s (%.1f frames/s); left world hash at frame %d: %016x",
		c.written, c.w, c.h, strings.Join(where, " and "), secs, float64(c.written)/max(secs, 1e-9),
		d.Session().Frame(), d.Session().Left().StateHash())
}

// captureFrame hands the screen of this tick to the capturer.
func (a *App) captureFrame(screen *ebiten.Image) {
	if b := screen.Bounds(); b.Dx() != a.cap.w || b.Dy() != a.cap.h {
		a.err = fmt.Errorf("capture: the screen is %d×%d, the capture %d×%d", b.Dx(), b.Dy(), a.cap.w, a.cap.h)
		return
	}
	a.cap.take(screen, a.ticks)
}

// captureDone reports whether the run to capture is over: -frames ticks,
// or the track played to its end (a live run is captured until it is
// closed).
func (a *App) captureDone() bool {
	if a.opts.Frames > 0 {
		return a.ticks >= a.opts.Frames
	}
	_, _, _, on := a.d.TrackStatus()
	return a.opts.Track != nil && a.ticks > 0 && !on
}

// StartCapture opens the capture's outputs (Run calls it).
func (a *App) startCapture() error {
	if !a.opts.Capture.On() {
		return nil
	}
	total := a.opts.Frames
	if total == 0 && a.opts.Track != nil {
		total = a.opts.Track.Length
	}
	c, err := newCapturer(a.opts.Capture, a.opts.Width, a.opts.Height, total)
	if err != nil {
		return err
	}
	a.cap = c
	return nil
}

// FinishCapture writes what is left of the capture and says what was
// captured (empty without a capture).
func (a *App) FinishCapture() (string, error) {
	if a.cap == nil {
		return "", nil
	}
	if err := a.cap.close(); err != nil {
		return "", err
	}
	return a.cap.summary(a.d), nil
}

// AbortCapture drops the capture of a run that failed (no display, an
// error): a video already at the path is left as it was.
func (a *App) AbortCapture() {
	if a.cap != nil {
		a.cap.abort()
	}
}
