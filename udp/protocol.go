package udp

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"netcubes/wire"
)

// Design note: the datagrams of the two-process mode, modelled on
// netcode.io (a connect request, a challenge, a response, then packets
// sealed with per-session keys and checked against a replay window) and on
// QUIC's address validation (RFC 9000 §8: an address that has not proved it
// can receive gets no more than it sent).
//
// Every datagram starts with the same 15-byte header, written and read by
// one Serialize like every packet of netcubes:
//
//	protocol id  32 bits  "NCUB": anything else is not ours and is dropped
//	version       8 bits  a left and a right of different versions refuse
//	                      each other (they would misread every datagram)
//	kind          8 bits  see Kind (a value past the last kind is refused)
//	slot          8 bits  the client slot a session datagram belongs to,
//	                      0..MaxClients-1 (a larger value is refused)
//	sequence     64 bits  counts the sender's datagrams under one key; it is
//	                      the AEAD nonce and the replay window's index
//
// then the body, sealed with ChaCha20-Poly1305 (RFC 8439) with the header
// as associated data, except in a deny (see below). The 16-byte tag proves
// the datagram was written by a holder of the key and not changed on the
// way, header included: flipping one bit anywhere fails it. Overhead: 31
// bytes a datagram (Overhead). Version 3 had 4 bits of kind and 4 of slot
// (16 slots, 14 bytes); a classroom of 64 needs 6 bits of slot, and a
// whole byte each keeps the header byte-aligned for one byte more.
//
// Keys. The token the left prints is 128 random bits; it is never sent.
// Every attempt to connect draws an X25519 key pair on the right; the left
// draws one per challenge. HKDF-SHA256 derives:
//
//	handshake keys  from the token, salted with the right's public key: only
//	                a holder of the token can write a connect request or a
//	                response, or read a challenge
//	session keys    from the token and the X25519 shared secret, salted with
//	                both public keys, one key per direction: another right
//	                holding the same token cannot derive them (it would need
//	                one of the two private keys), so it cannot write or read
//	                a datagram of someone else's session
//
// The handshake (netcode.io's, with QUIC's stateless retry token as the
// cookie):
//
//	right → left  connect    the right's public key and the time it was
//	                         sent (the right's wall clock, in clear but
//	                         authenticated), a sealed empty body, padded
//	                         to ConnectBytes
//	left → right  challenge  sealed: the left's public key and a cookie;
//	                         never larger than the connect it answers
//	right → left  response   the right's public key and the cookie, sealed
//	left → right  accept     sealed with the session key: the slot and the
//	                         state the right starts from
//
// The cookie is sealed with a key only the left knows (drawn at start) and
// holds the right's public key, the left's private key for this attempt,
// the address the challenge was sent to and when. A response whose cookie
// opens, names this address and is younger than CookieTicks proves that
// the sender holds the token (it sealed the response) and receives at the
// address (it read the cookie): only then does the left spend a slot and
// send more than it received. Before that each datagram in gets at most
// one datagram out, no larger, and the left keeps no state for it.
//
// Freshness and budgets. A connect is the only datagram a stranger can
// replay to the left with any effect (everything after it is numbered in a
// session), so it carries the time it was sent: the left refuses one
// stamped more than FreshSeconds from its own clock, before any key work,
// so a connect captured a minute ago (or before the left restarted with the
// same -token) is worth nothing. Within that minute a replay still
// authenticates, so the left budgets its answers three ways, cheapest
// first: per source address (SourceRequestsPerSecond, a table indexed by a
// keyed hash: a flood from one address is dropped before any key work), per
// right's public key (KeyChallengesPerSecond, among the last 64 keys that
// authenticated: a replayed key gets a couple of challenges a second and is
// dropped before any key work after that, a new key gets one at once), and
// in all (ChallengesPerSecond). A replayed connect therefore cannot use up
// the challenges a new right needs; only holders of the token, drawing new
// keys, can.
//
// Denies (wrong version, wrong key, a stale connect, no free slot, no such
// session) travel in clear, 16 bytes, at most DeniesPerSecond, and only to
// a request at least as large: a right that gets one shows the reason and
// keeps trying (a right that was refused for its token on every attempt
// for a while gives up, see Client), so a forged deny can only put a wrong
// reason on a screen, or make a right knock once more.
//
// A right whose address changes (a NAT rebinding) keeps sending sealed
// datagrams from the new address. The left takes their content (they are
// authentic and fresh) but keeps sending to the old address until the new
// one answers a path challenge (QUIC's PATH_CHALLENGE/PATH_RESPONSE, RFC
// 9000 §8.2), sent within 3× the bytes that came from there. An answer
// from there is not enough on its own: an attacker on the path can copy a
// right's datagrams and spoof a victim's address as their source, relay
// the challenge to the right and the answer back from the victim. So, as
// QUIC advises (§9.3.3), the left then probes the old address too: if the
// right still answers there, it never moved, and the slot stays. Only when
// the old address stays silent for RetryTicks does the slot move, and its
// sending budget restarts low (MoveStartBytes a tick, doubling each tick
// the right is heard from its new address), as QUIC restarts its
// congestion window after a migration (§9.4).

// ProtocolID is "NCUB" read as a little-endian 32-bit word.
const ProtocolID uint32 = 'N' | 'C'<<8 | 'U'<<16 | 'B'<<24

// Version is the protocol's version; bump it with any format change. The
// header's first 40 bits (protocol id, version) never change, so a left
// can tell a right of another version why it refuses it.
const Version uint8 = 4

// Kind says what a datagram carries.
type Kind uint8

// The kinds of datagram. Data, Control and Diag are the session's own
// (app kinds); the others belong to the transport.
const (
	KindConnect       Kind = iota // right → left: please take me (public key, padded)
	KindChallenge                 // left → right: prove you receive here (cookie)
	KindResponse                  // right → left: the cookie back
	KindAccept                    // left → right: your slot and the session state
	KindDeny                      // left → right, in clear: why not
	KindKeepAlive                 // either way: still here
	KindDisconnect                // either way: I am leaving
	KindPathChallenge             // left → right: prove you receive at your new address
	KindPathResponse              // right → left: the path challenge's nonce back
	KindData                      // either way: a strategy's packet, as in one process
	KindControl                   // left → right: the strategy, its settings, the link
	KindDiag                      // left → right: the truth, for the right's error figure
	KindReport                    // right → left: the right's own figures and view, a few times a second

	numKinds = iota
)

var kindNames = [numKinds]string{"connect", "challenge", "response", "accept", "deny", "keep-alive",
	"disconnect", "path challenge", "path response", "data", "control", "diagnostics", "report"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// toRight and toLeft say which kinds travel which way.
const (
	toRight = 1<<KindChallenge | 1<<KindAccept | 1<<KindDeny | 1<<KindKeepAlive | 1<<KindDisconnect |
		1<<KindPathChallenge | 1<<KindData | 1<<KindControl | 1<<KindDiag
	toLeft = 1<<KindConnect | 1<<KindResponse | 1<<KindKeepAlive | 1<<KindDisconnect |
		1<<KindPathResponse | 1<<KindData | 1<<KindReport
)

// AppToRight and AppToLeft report whether the session may send kind k in
// that direction with Server.Send or Client.Send.
func AppToRight(k Kind) bool { return k == KindData || k == KindControl || k == KindDiag }
func AppToLeft(k Kind) bool  { return k == KindData || k == KindReport }

// MaxClients is the most client slots a left has: a classroom of 64 (the
// header's slot byte could say 256; the reader refuses past 63).
const MaxClients = 64

// Sizes, bytes.
const (
	HeaderBytes = (32 + 8 + 8 + 8 + 64) / 8
	TagBytes    = 16 // Poly1305
	// Overhead is what the transport adds to a session datagram's body.
	Overhead = HeaderBytes + TagBytes
	keyBytes = 32 // X25519 public and private keys, ChaCha20 keys
	// cookieBytes: its own nonce, then sealed: the right's public key, the
	// left's private key, the address (16-byte IP, port), the tick.
	cookiePlain = keyBytes + keyBytes + 16 + 2 + 8
	cookieBytes = 8 + cookiePlain + TagBytes
	// A challenge: the left's public key and the cookie, sealed.
	ChallengeBytes = HeaderBytes + keyBytes + cookieBytes + TagBytes
	// A response: the right's public key in clear, the cookie sealed.
	ResponseBytes = HeaderBytes + keyBytes + cookieBytes + TagBytes
	// A connect request is padded to the size of the challenge it asks
	// for, so answering it amplifies nothing. In clear (authenticated):
	// the right's public key and the time it was sent (stampBytes).
	ConnectBytes = ChallengeBytes
	stampBytes   = 8
	connectClear = keyBytes + stampBytes
	connectPad   = ConnectBytes - HeaderBytes - connectClear - TagBytes
	// DenyBytes: header, reason, the left's version.
	DenyBytes = HeaderBytes + 2
	// A path challenge or response: an 8-byte nonce, sealed.
	PathBytes = HeaderBytes + 8 + TagBytes
	// MaxDatagram is the largest UDP payload over IPv4, and so the largest
	// datagram this protocol sends (an uncompressed 901-cube snapshot is
	// 36 kB); MaxBody is the largest body a session datagram carries.
	MaxDatagram = 65507
	MaxBody     = MaxDatagram - Overhead
)

// Header starts every datagram.
type Header struct {
	Protocol uint32
	Version  uint8
	Kind     Kind
	Slot     uint8
	Sequence uint64
}

// Errors of the header; sentinels, so dropping a datagram never allocates.
var (
	ErrNotOurs      = errors.New("udp: not a netcubes datagram")
	ErrWrongVersion = errors.New("udp: another protocol version")
)

// Serialize writes, reads or measures the header. Reading checks the
// protocol id (ErrNotOurs) and the version (ErrWrongVersion, after which
// only Protocol and Version are valid: the rest may be laid out otherwise
// in another version).
func (h *Header) Serialize(s wire.Stream) error {
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint32(s, &h.Protocol); err != nil {
		return err
	}
	if s.IsReading() && h.Protocol != ProtocolID {
		return s.Fail(ErrNotOurs)
	}
	if err := wire.SerializeInt(s, &h.Version, 0, 255); err != nil {
		return err
	}
	if s.IsReading() && h.Version != Version {
		return s.Fail(ErrWrongVersion)
	}
	k := uint32(h.Kind)
	if err := wire.SerializeBits(s, &k, 8); err != nil {
		return err
	}
	if s.IsReading() && k >= numKinds {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	h.Kind = Kind(k)
	slot := uint32(h.Slot)
	if err := wire.SerializeBits(s, &slot, 8); err != nil {
		return err
	}
	if slot >= MaxClients {
		return s.Fail(wire.ErrValueOutOfRange) // both ways: never written, never read
	}
	h.Slot = uint8(slot)
	if err := wire.SerializeUint64(s, &h.Sequence); err != nil {
		return err
	}
	return s.SerializeAlign()
}

// Token is the session's secret: 128 random bits the left draws and
// prints, the key material of every key (see the design note). It is never
// sent.
type Token [16]byte

// NewToken draws a token from the operating system's random source (not
// the simulation's: it is a secret, and nothing simulated depends on it).
func NewToken() (Token, error) {
	var t Token
	_, err := rand.Read(t[:])
	return t, err
}

// ParseToken reads a token as the left prints it (32 hex digits).
func ParseToken(s string) (Token, error) {
	var t Token
	if len(s) != 2*len(t) {
		return t, fmt.Errorf("a token is %d hex digits (the left prints it), got %d characters", 2*len(t), len(s))
	}
	if _, err := hex.Decode(t[:], []byte(s)); err != nil {
		return t, fmt.Errorf("a token is %d hex digits (the left prints it), got %q", 2*len(t), shorten(s))
	}
	return t, nil
}

// String is the token as the left prints it.
func (t Token) String() string { return hex.EncodeToString(t[:]) }

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Reason says why a left refused a right.
type Reason uint8

// The reasons for a deny.
const (
	ReasonNone      Reason = iota
	ReasonVersion          // the left speaks another protocol version
	ReasonKey              // the connect request did not open with the left's token
	ReasonFull             // every slot is taken
	ReasonStale            // the connect's time is too far from the left's clock
	ReasonNoSession        // a session datagram for a session this left does not have (it restarted)

	numReasons = iota
)

// Refusal is a deny as the right keeps it: the reason and, for a version
// refusal, the left's version.
type Refusal struct {
	Reason      Reason
	LeftVersion uint8
}

// String says the refusal in a sentence for the screen.
func (r Refusal) String() string {
	switch r.Reason {
	case ReasonVersion:
		if r.LeftVersion == Version {
			// Both speak this version: the datagram that said otherwise
			// was changed on the way (or forged).
			return fmt.Sprintf("the left refused a datagram of another protocol version, though both speak version %d: one was changed on the way", Version)
		}
		return fmt.Sprintf("the left refused: it speaks protocol version %d, this right %d (run the same netcubes on both)", r.LeftVersion, Version)
	case ReasonKey:
		return "the left refused: wrong token (use the one the left printed)"
	case ReasonFull:
		return "the left refused: every slot is taken"
	case ReasonStale:
		return fmt.Sprintf("the left refused: this machine's clock is more than %d s from the left's (set both clocks right)", DefaultConfig().FreshSeconds)
	case ReasonNoSession:
		return "the left does not know this session (it restarted)"
	}
	return ""
}

// deny is a deny's body.
type deny struct {
	reason  Reason
	version uint8
}

func (d *deny) Serialize(s wire.Stream) error {
	if err := wire.SerializeInt(s, &d.reason, 1, numReasons-1); err != nil {
		return err
	}
	return wire.SerializeInt(s, &d.version, 0, 255)
}

// serializeBytes writes or reads b byte by byte (handshake fields: keys,
// sealed blobs).
func serializeBytes(s wire.Stream, b []byte) error {
	for i := range b {
		if err := wire.SerializeInt(s, &b[i], 0, 255); err != nil {
			return err
		}
	}
	return nil
}
