package registryclient_test

// BenchmarkOperationPolling measures how close the client's polling of
// long-running operations comes to the operation floor: an apply
// of n services at Terraform's default parallelism (10) against the bundled
// registry whose operations take delay, with the client's default polling.
// The floor is ceil(n/10) waves of delay. It prints, and reports as metrics,
// the wall time's ratio to the floor and the polls per second of operation:
//
//	go test ./internal/registryclient -run '^$' -bench OperationPolling -benchtime 1x
//
// The bar: within 1.25x of the floor, and no more than one poll a
// second per operation on average.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

func BenchmarkOperationPolling(b *testing.B) {
	card, err := os.ReadFile(filepath.Join("..", "spec", "testdata", "card", "valid-0.3.json"))
	if err != nil {
		b.Skipf("no card fixture: %v", err)
	}
	const parallelism = 10
	for _, tc := range []struct {
		n     int
		delay time.Duration
	}{{20, 2 * time.Second}, {10, 2 * time.Second}, {50, time.Second}} {
		b.Run(fmt.Sprintf("%d services, %s operations", tc.n, tc.delay), func(b *testing.B) {
			srv, ts := registryservertest.Start(b, registryserver.Options{OperationDelay: tc.delay, Token: testToken})
			c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: ts.URL, AppHubEndpoint: ts.URL, AccessToken: testToken})
			if err != nil {
				b.Fatal(err)
			}
			waves := (tc.n + parallelism - 1) / parallelism
			floor := time.Duration(waves) * tc.delay
			for i := range b.N {
				srv.ResetRequests()
				var opTime atomic.Int64
				sem := make(chan struct{}, parallelism)
				var wg sync.WaitGroup
				errs := make(chan error, tc.n)
				start := time.Now()
				for j := range tc.n {
					wg.Add(1)
					sem <- struct{}{}
					go func() {
						defer func() { <-sem; wg.Done() }()
						t0 := time.Now()
						svc := &agentregistry.Service{DisplayName: "bench", AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: card}}
						if _, err := c.CreateService(context.Background(), parent, fmt.Sprintf("bench-%d-%d", i, j), svc); err != nil {
							errs <- err
						}
						opTime.Add(int64(time.Since(t0)))
					}()
				}
				wg.Wait()
				elapsed := time.Since(start)
				close(errs)
				for err := range errs {
					b.Fatal(err)
				}
				polls := 0
				perOp := map[string]int{}
				for _, r := range srv.Requests() {
					if strings.Contains(r.Path, "/operations/") {
						polls++
						perOp[r.Path]++
					}
				}
				if os.Getenv("POLL_DEBUG") != "" {
					fmt.Println(perOp)
				}
				ratio := elapsed.Seconds() / floor.Seconds()
				perOpSecond := float64(polls) / time.Duration(opTime.Load()).Seconds()
				b.ReportMetric(ratio, "x-floor")
				b.ReportMetric(perOpSecond, "polls/op-s")
				fmt.Printf("operation polling: %d services, %s operations, parallelism %d: %.2fs, floor %.0fs, %.2fx the floor; %d polls, %.2f a second per operation\n",
					tc.n, tc.delay, parallelism, elapsed.Seconds(), floor.Seconds(), ratio, polls, perOpSecond)
			}
		})
	}
}
