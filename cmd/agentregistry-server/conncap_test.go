package main

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// At the connection cap, idle keep-alive connections (here each after one
// 401, without the token) give way to a new client, which is served at once
// rather than after -idle-timeout (60 s).
func TestIdleConnectionsGiveWayAtTheCap(t *testing.T) {
	bin := buildServer(t)
	t.Setenv(tokenEnv, "secret")
	_, url := startServer(t, bin, "-max-connections", "4", "-idle-timeout", "60s")
	addr := strings.TrimPrefix(url, "http://")
	for i := 0; i < 4; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = c.Close() }()
		if _, err := c.Write([]byte("GET /v1/" + parent + "/services HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("without the token: %d", res.StatusCode)
		}
	}
	req, _ := http.NewRequest("GET", url+"/v1/"+parent+"/services", nil)
	req.Header.Set("Authorization", "Bearer secret")
	start := time.Now()
	res, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("an authenticated client, with 4 idle connections at the cap of 4: %v (after %s)", err, time.Since(start))
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("status %d", res.StatusCode)
	}
}
