package room

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pion/sdp/v3"

	"netcubes/udp"
)

// Design note: joining is one HTTP request and its answer, no trickled
// candidates: the browser waits until it has gathered its candidates (on
// a LAN, its host addresses: no STUN, no TURN) and posts its whole offer
// with the room's token; the server answers with its whole answer. One
// round trip, and a request is complete or refused as a whole.
//
// Everything in a request is checked before anything is built for it:
// the size, the JSON (exactly these fields, nothing after), the token, and
// the offer's SDP (it parses, it offers one data channel and no media).
// The answer the browser reads is checked the same way.

// Paths of the room's endpoints, beside the web page.
const (
	OfferPath  = "/room/offer"
	SocketPath = "/room/ws"
)

// ChannelLabel is the data channel's name.
const ChannelLabel = "netcubes"

// MaxSignalBytes bounds a join request or its answer: an offer with a few
// host candidates is about 1 kB; 16 kB is more than any real one.
const MaxSignalBytes = 16 << 10

// maxCandidates bounds the candidates an offer may list (each is a
// connectivity check the server would run): a laptop with several
// interfaces and IPv6 has a dozen.
const maxCandidates = 32

// Join is a browser's request to join: the room's token and its offer.
type Join struct {
	Token string `json:"token"`
	SDP   string `json:"sdp"`
}

// Answer is the server's reply: its answer, or why it refused.
type Answer struct {
	SDP   string `json:"sdp,omitempty"`
	Error string `json:"error,omitempty"`
	// Refusal names the reason for a program: "token", "full",
	// "websocket" (the room asks for the fallback), "malformed", "busy".
	Refusal string `json:"refusal,omitempty"`
}

// Errors of a request.
var (
	ErrMalformed = errors.New("room: malformed request")
)

// ReadJoin reads a join request strictly: at most MaxSignalBytes, exactly
// the fields of Join, a token that parses, and an offer of one data channel.
func ReadJoin(r io.Reader) (Join, udp.Token, error) {
	var j Join
	if err := readJSON(r, &j); err != nil {
		return j, udp.Token{}, err
	}
	tok, err := udp.ParseToken(j.Token)
	if err != nil {
		return j, udp.Token{}, fmt.Errorf("%w: token: %v", ErrMalformed, err)
	}
	if err := checkSDP(j.SDP, true); err != nil {
		return j, tok, err
	}
	return j, tok, nil
}

// ReadAnswer reads the server's reply as strictly.
func ReadAnswer(r io.Reader) (Answer, error) {
	var a Answer
	if err := readJSON(r, &a); err != nil {
		return a, err
	}
	if a.Error != "" || a.Refusal != "" {
		if len(a.Error) > 200 || len(a.Refusal) > 20 || a.SDP != "" {
			return a, fmt.Errorf("%w: refusal", ErrMalformed)
		}
		return a, nil
	}
	return a, checkSDP(a.SDP, false)
}

// readJSON decodes one JSON object of at most MaxSignalBytes into v,
// refusing unknown fields and anything after it.
func readJSON(r io.Reader, v any) error {
	b, err := io.ReadAll(io.LimitReader(r, MaxSignalBytes+1))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if len(b) > MaxSignalBytes {
		return fmt.Errorf("%w: larger than %d bytes", ErrMalformed, MaxSignalBytes)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if d.More() {
		return fmt.Errorf("%w: data after the object", ErrMalformed)
	}
	return nil
}

// checkSDP parses a session description and checks it describes what the
// room speaks: exactly one media section, a data channel
// ("m=application … webrtc-datachannel"), with ICE credentials and a DTLS
// fingerprint, and a bounded number of candidates.
func checkSDP(s string, offer bool) error {
	if s == "" || strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("%w: empty SDP", ErrMalformed)
	}
	var d sdp.SessionDescription
	if err := d.UnmarshalString(s); err != nil {
		return fmt.Errorf("%w: SDP: %v", ErrMalformed, err)
	}
	if len(d.MediaDescriptions) != 1 {
		return fmt.Errorf("%w: %d media sections, want one data channel", ErrMalformed, len(d.MediaDescriptions))
	}
	m := d.MediaDescriptions[0]
	if m.MediaName.Media != "application" || len(m.MediaName.Formats) != 1 || m.MediaName.Formats[0] != "webrtc-datachannel" {
		return fmt.Errorf("%w: the media section is not a data channel", ErrMalformed)
	}
	has := func(key string) bool {
		if _, ok := m.Attribute(key); ok {
			return true
		}
		_, ok := d.Attribute(key)
		return ok
	}
	if !has("ice-ufrag") || !has("ice-pwd") || !has("fingerprint") {
		return fmt.Errorf("%w: no ICE credentials or DTLS fingerprint", ErrMalformed)
	}
	n := 0
	for _, a := range m.Attributes {
		if a.Key == "candidate" {
			n++
		}
	}
	if n > maxCandidates {
		return fmt.Errorf("%w: %d candidates (at most %d)", ErrMalformed, n, maxCandidates)
	}
	if !offer && n == 0 {
		return fmt.Errorf("%w: an answer without candidates", ErrMalformed)
	}
	return nil
}
