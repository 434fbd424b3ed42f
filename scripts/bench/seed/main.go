// Command seed registers N agents in a registry through its HTTP API with the
// official Google client, as a registry populated outside Terraform is (make
// bench, scripts/bench/query.sh): service agent-<i> in the project, each with
// its own card (the URL carries the index), every 10th the 10 KB card of
// scripts/bench, the others the 2 KB one.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sync/errgroup"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/option"
)

func main() {
	endpoint := flag.String("endpoint", "", "the registry's base URL, such as http://127.0.0.1:8787")
	project := flag.String("project", "", "the project to register the agents in")
	n := flag.Int("n", 100, "how many agents")
	cards := flag.String("cards", "scripts/bench", "the folder with card-2k.json and card-10k.json")
	flag.Parse()
	if *endpoint == "" || *project == "" {
		log.Fatal("seed: -endpoint and -project are required")
	}
	small, err := os.ReadFile(filepath.Join(*cards, "card-2k.json"))
	if err != nil {
		log.Fatal(err)
	}
	large, err := os.ReadFile(filepath.Join(*cards, "card-10k.json"))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	api, err := agentregistry.NewService(ctx, option.WithEndpoint(*endpoint+"/"), option.WithoutAuthentication())
	if err != nil {
		log.Fatal(err)
	}
	parent := "projects/" + *project + "/locations/global"
	var g errgroup.Group
	g.SetLimit(8)
	for i := range *n {
		card := small
		if i%10 == 0 {
			card = large
		}
		card = bytes.ReplaceAll(card, []byte("https://agents.example.com/"), []byte("https://agents.example.com/"+strconv.Itoa(i)+"/"))
		g.Go(func() error { return create(ctx, api, parent, fmt.Sprintf("agent-%d", i), card) })
	}
	if err := g.Wait(); err != nil {
		log.Fatal(err)
	}
}

// create registers one agent and waits for its operation.
func create(ctx context.Context, api *agentregistry.APIService, parent, id string, card []byte) error {
	op, err := api.Projects.Locations.Services.Create(parent, &agentregistry.Service{
		AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: card},
	}).ServiceId(id).Context(ctx).Do()
	for err == nil && !op.Done {
		op, err = api.Projects.Locations.Operations.Get(op.Name).Context(ctx).Do()
	}
	if err == nil && op.Error != nil {
		err = fmt.Errorf("operation failed: %s", op.Error.Message)
	}
	if err != nil {
		return fmt.Errorf("create %s: %w", id, err)
	}
	return nil
}
