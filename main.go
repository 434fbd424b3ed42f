// Command terraform-provider-agentregistry serves the agentregistry provider over
// the Terraform plugin protocol 6.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/provider"
)

// version is set at release time by goreleaser (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	silenceLogsNobodyReads()
	stopProfile := startCPUProfile(strings.ReplaceAll(os.Getenv("AGENTREGISTRY_CPUPROFILE"), "%p", strconv.Itoa(os.Getpid())))
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/agentregistry/agentregistry",
		Debug:   debug,
	})
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

// startCPUProfile writes a CPU profile of this process to file when file is set.
// OpenTofu starts the provider itself, so an environment variable is the only way
// to ask for a profile (AGENTREGISTRY_CPUPROFILE, where %p stands for the process
// id, since one run starts several provider processes); used for performance work.
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
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Print("writing the CPU profile: " + err.Error())
		}
	}
}

// silenceLogsNobodyReads turns the SDK's logs off when no TF_LOG* variable is set.
// terraform-plugin-go and the framework log every RPC at TRACE level by default,
// JSON-encoded on stderr, and OpenTofu / Terraform parse each line only to drop it
// when logging is off: profiling a 500-resource plan showed a quarter of the
// provider's CPU spent there. The plugin inherits the CLI's environment, so with no
// TF_LOG* variable the CLI is not logging and nothing is lost; with any of them
// set, the SDK's own defaults apply unchanged.
func silenceLogsNobodyReads() {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_LOG") {
			return
		}
	}
	for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		_ = os.Setenv(name, "OFF") // fails only on a name with "=" or NUL, and these are constants
	}
}
