// Command terraform-provider-agentregistry serves the agentregistry provider over
// the Terraform plugin protocol 6.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/provider"
)

// version is set at release time by goreleaser (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/hashicorp/agentregistry",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
