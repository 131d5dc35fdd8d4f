package udp

import (
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"net/netip"

	"golang.org/x/crypto/chacha20poly1305"

	"netcubes/wire"
)

// The labels HKDF mixes in, so no two keys are ever the same even from the
// same secret. The version is part of them: a key of another version never
// opens anything of this one.
const (
	labelHandshakeToLeft  = "netcubes v4 handshake right->left"
	labelHandshakeToRight = "netcubes v4 handshake left->right"
	labelSessionToLeft    = "netcubes v4 session right->left"
	labelSessionToRight   = "netcubes v4 session left->right"
)

// errOpen is any datagram that fails authentication.
var errOpen = errors.New("udp: datagram failed authentication")

// newAEAD makes a ChaCha20-Poly1305 from a 32-byte key.
func newAEAD(key []byte) cipher.AEAD {
	a, err := chacha20poly1305.New(key)
	if err != nil {
		panic(err) // only a wrong key length, which derive never returns
	}
	return a
}

// derive is HKDF-SHA256 to a 32-byte key.
func derive(secret, salt []byte, label string) []byte {
	k, err := hkdf.Key(sha256.New, secret, salt, label, keyBytes)
	if err != nil {
		panic(err) // only for a length HKDF-SHA256 cannot give
	}
	return k
}

// handshakeKeys are the keys of one attempt to connect (one right public
// key): right → left and left → right.
func handshakeKeys(token Token, rightPub []byte) (toLeft, toRight cipher.AEAD) {
	return handshakeToLeft(token, rightPub), handshakeToRight(token, rightPub)
}

// handshakeToLeft and handshakeToRight are the two halves: the left
// derives the second only for a connect the first opened (key work last).
func handshakeToLeft(token Token, rightPub []byte) cipher.AEAD {
	return newAEAD(derive(token[:], rightPub, labelHandshakeToLeft))
}

func handshakeToRight(token Token, rightPub []byte) cipher.AEAD {
	return newAEAD(derive(token[:], rightPub, labelHandshakeToRight))
}

// sessionKeys are a session's keys, from the token and the X25519 shared
// secret, salted with both public keys.
func sessionKeys(token Token, shared, rightPub, leftPub []byte) (toLeft, toRight cipher.AEAD) {
	secret := append(append(make([]byte, 0, len(token)+len(shared)), token[:]...), shared...)
	salt := append(append(make([]byte, 0, 2*keyBytes), rightPub...), leftPub...)
	return newAEAD(derive(secret, salt, labelSessionToLeft)), newAEAD(derive(secret, salt, labelSessionToRight))
}

// nonceBuf holds a 96-bit nonce. It lives in the caller's (long-lived)
// state: a nonce on the stack would escape into the AEAD interface and
// cost an allocation per datagram.
type nonceBuf [chacha20poly1305.NonceSize]byte

// set makes n the nonce of a sequence number. Every key seals with one
// sender's counter, so a nonce never repeats under a key.
func (n *nonceBuf) set(seq uint64) []byte {
	binary.LittleEndian.PutUint64(n[:8], seq)
	n[8], n[9], n[10], n[11] = 0, 0, 0, 0
	return n[:]
}

// writeHeader writes h into buf's first HeaderBytes.
func writeHeader(w *wire.WriteStream, buf []byte, h Header) bool {
	h.Protocol, h.Version = ProtocolID, Version
	w.Reset(buf[:HeaderBytes])
	return h.Serialize(w) == nil && len(w.Bytes()) == HeaderBytes
}

// seal writes a datagram into buf: the header, clear (sent as is and
// authenticated), then plain sealed. It returns the datagram, or nil when
// it does not fit.
func seal(w *wire.WriteStream, nc *nonceBuf, buf []byte, h Header, a cipher.AEAD, clear, plain []byte) []byte {
	n := HeaderBytes + len(clear) + len(plain) + TagBytes
	if n > len(buf) || !writeHeader(w, buf, h) {
		return nil
	}
	copy(buf[HeaderBytes:], clear)
	// The ciphertext is appended after the associated data, in buf: the
	// two never overlap.
	ad := buf[:HeaderBytes+len(clear)]
	return a.Seal(ad, nc.set(h.Sequence), plain, ad)
}

// open authenticates a datagram whose first HeaderBytes+clearBytes are
// associated data and returns the plaintext, decrypted in place.
func open(a cipher.AEAD, nc *nonceBuf, seq uint64, d []byte, clearBytes int) ([]byte, error) {
	at := HeaderBytes + clearBytes
	if len(d) < at+TagBytes {
		return nil, errOpen
	}
	p, err := a.Open(d[at:at], nc.set(seq), d[at:], d[:at])
	if err != nil {
		return nil, errOpen
	}
	return p, nil
}

// cookie is what the left puts in a challenge and takes back in the
// response, sealed with its own cookie key: the whole state of a pending
// right, kept by the right.
type cookie struct {
	rightPub [keyBytes]byte
	leftPriv [keyBytes]byte
	addr     [16]byte
	port     uint16
	issued   uint64 // the left's tick
}

func (c *cookie) Serialize(s wire.Stream) error {
	for _, b := range [][]byte{c.rightPub[:], c.leftPriv[:], c.addr[:]} {
		if err := serializeBytes(s, b); err != nil {
			return err
		}
	}
	if err := wire.SerializeUint16(s, &c.port); err != nil {
		return err
	}
	return wire.SerializeUint64(s, &c.issued)
}

func addrBytes(a netip.AddrPort) ([16]byte, uint16) { return a.Addr().As16(), a.Port() }

// replayWindow remembers which sequences arrived among the last
// replayBits: a datagram older than that, or seen before, is a replay
// (netcode.io's replay protection, with a larger window because the left
// sends several datagrams a tick).
type replayWindow struct {
	started bool
	newest  uint64
	bits    [replayBits / 64]uint64
}

const replayBits = 1024

// fresh reports whether seq has not been seen and is within the window.
// It records nothing: the datagram is authenticated first.
func (r *replayWindow) fresh(seq uint64) bool {
	if !r.started || seq > r.newest {
		return true
	}
	if r.newest-seq >= replayBits {
		return false
	}
	i := seq % replayBits
	return r.bits[i/64]&(1<<(i%64)) == 0
}

// mark records seq (after fresh said yes and the datagram opened).
func (r *replayWindow) mark(seq uint64) {
	if !r.started {
		r.started, r.newest = true, seq
	} else if seq > r.newest {
		// Clear the slots of the sequences jumped over.
		if seq-r.newest >= replayBits {
			r.bits = [replayBits / 64]uint64{}
		} else {
			for s := r.newest + 1; s < seq; s++ {
				i := s % replayBits
				r.bits[i/64] &^= 1 << (i % 64)
			}
		}
		r.newest = seq
	}
	i := seq % replayBits
	r.bits[i/64] |= 1 << (i % 64)
}

// x25519 is the curve of the key exchange.
var x25519 = ecdh.X25519()

// bucket is a token bucket counted in ticks: rate tokens a tick, at most
// burst. It rate-limits what the left sends to addresses it has not
// validated (denies, challenges).
type bucket struct {
	tokens, rate, burst float64
	at                  wire.Tick
	started             bool
}

func (b *bucket) take(now wire.Tick) bool {
	if !b.started {
		b.started, b.tokens, b.at = true, b.burst, now
	}
	if now > b.at {
		b.tokens = min(b.burst, b.tokens+b.rate*float64(now-b.at))
		b.at = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
