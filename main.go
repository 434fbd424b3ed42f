// Command terraform-provider-agentregistry serves the agentregistry provider over
// the Terraform plugin protocol 6.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"runtime/pprof"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/provider"
)

// version is set at release time by goreleaser (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	stopProfile := startCPUProfile(os.Getenv("AGENTREGISTRY_CPUPROFILE"))
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/hashicorp/agentregistry",
		Debug:   debug,
	})
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// startCPUProfile writes a CPU profile of this process to file when file is set.
// OpenTofu starts the provider itself, so an environment variable is the only way
// to ask for a profile; used when measuring performance (scripts/bench.sh).
func startCPUProfile(file string) (stop func()) {
	if file == "" {
		return func() {}
	}
	f, err := os.Create(file)
	if err != nil {
		log.Fatal(err.Error())
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err.Error())
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}
