//go:build !js

package room

import (
	"context"
	"time"

	"github.com/coder/websocket"
)

// wsQueue bounds the messages waiting to go out on one WebSocket: about
// a second of what the server sends a right. A TCP connection that
// cannot keep up (a lost segment holds back everything after it) drops
// what comes beyond, as a congested link does, and holds back only
// itself.
const wsQueue = 128

// writeTimeout closes a WebSocket whose one write takes this long.
const writeTimeout = 5 * time.Second

// wsCarrier sends on a WebSocket through a bounded queue and a goroutine
// of its own (a write on a TCP connection can block).
type wsCarrier struct {
	conn   *websocket.Conn
	out    chan []byte
	cancel context.CancelFunc
}

func newWSCarrier(conn *websocket.Conn, cancel context.CancelFunc) *wsCarrier {
	return &wsCarrier{conn: conn, out: make(chan []byte, wsQueue), cancel: cancel}
}

func (c *wsCarrier) send(b []byte) error {
	select {
	case c.out <- append([]byte(nil), b...):
		return nil
	default:
		return errSendFull
	}
}

func (c *wsCarrier) writeLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-c.out:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := c.conn.Write(wctx, websocket.MessageBinary, b)
			cancel()
			if err != nil {
				c.close()
				return
			}
		}
	}
}

func (c *wsCarrier) close() {
	c.cancel()
	c.conn.CloseNow()
}
