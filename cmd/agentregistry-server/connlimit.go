package main

// The connection cap. netutil.LimitListener stops accepting at the cap and
// waits for a connection to close, so a client that keeps idle keep-alive
// connections open (even one without the token: each had its 401) holds
// every slot for -idle-timeout, and reopening them keeps the server out of
// reach. capListener closes the connection idle the longest instead, so
// that at the cap a new client waits at most for a request to finish;
// connections that are reading or serving a request keep their slot (their
// time is bounded by the read and write timeouts).

import (
	"net"
	"net/http"
	"sync"
	"time"
)

type capListener struct {
	net.Listener
	max int

	mu     sync.Mutex
	open   int                        // slots taken: connections accepted and not closed
	idle   map[*trackedConn]time.Time // connections idle between requests, since when
	freed  chan struct{}              // a slot was released or a connection went idle
	closed chan struct{}
	once   sync.Once
}

func newCapListener(l net.Listener, limit int) *capListener {
	return &capListener{Listener: l, max: limit, idle: map[*trackedConn]time.Time{},
		freed: make(chan struct{}, 1), closed: make(chan struct{})}
}

// Accept takes a slot, closing the connection idle the longest when none is
// free, or waits for one when every connection is busy.
func (l *capListener) Accept() (net.Conn, error) {
	for !l.take() {
		select {
		case <-l.freed:
		case <-l.closed:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		l.release()
		return nil, err
	}
	return &trackedConn{Conn: c, l: l}, nil
}

// take takes a free slot, or closes the oldest idle connection (whose
// slot is then free: true when it took one).
func (l *capListener) take() bool {
	l.mu.Lock()
	if l.open < l.max {
		l.open++
		l.mu.Unlock()
		return true
	}
	var oldest *trackedConn
	for c, since := range l.idle {
		if oldest == nil || since.Before(l.idle[oldest]) {
			oldest = c
		}
	}
	delete(l.idle, oldest)
	l.mu.Unlock()
	if oldest != nil {
		_ = oldest.Close()
	}
	return false
}

func (l *capListener) release() {
	l.mu.Lock()
	l.open--
	l.mu.Unlock()
	l.signal()
}

func (l *capListener) signal() {
	select {
	case l.freed <- struct{}{}:
	default:
	}
}

func (l *capListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// connState is the http.Server's ConnState hook: it keeps the set of idle
// connections.
func (l *capListener) connState(c net.Conn, st http.ConnState) {
	tc, ok := c.(*trackedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	if st == http.StateIdle {
		l.idle[tc] = time.Now()
	} else {
		delete(l.idle, tc)
	}
	l.mu.Unlock()
	if st == http.StateIdle {
		l.signal()
	}
}

// trackedConn gives its slot back when closed, once.
type trackedConn struct {
	net.Conn
	l    *capListener
	once sync.Once
}

func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.idle, c)
		c.l.mu.Unlock()
		c.l.release()
	})
	return err
}
