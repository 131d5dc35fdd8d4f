package udp

import "net"

// LocalAddr is the address the client's socket is bound to, for tests
// that aim datagrams at it.
func (c *Client) LocalAddr() net.Addr { return c.sock.LocalAddr() }
