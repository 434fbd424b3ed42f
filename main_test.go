package main

import (
	"os"
	"strings"
	"testing"
)

// clearTFLog removes every TF_LOG* variable for the test and restores them after.
func clearTFLog(t *testing.T) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_LOG") {
			t.Setenv(name, "") // registers the restore
			if err := os.Unsetenv(name); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(name, "")
		if err := os.Unsetenv(name); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSilenceLogsNobodyReads_offWhenNoLogIsAskedFor(t *testing.T) {
	clearTFLog(t)
	silenceLogsNobodyReads()
	for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		if got := os.Getenv(name); got != "OFF" {
			t.Errorf("%s = %q, want OFF", name, got)
		}
	}
}

func TestSilenceLogsNobodyReads_untouchedWhenTheUserLogs(t *testing.T) {
	clearTFLog(t)
	t.Setenv("TF_LOG", "DEBUG")
	silenceLogsNobodyReads()
	for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_FRAMEWORK"} {
		if got, set := os.LookupEnv(name); set {
			t.Errorf("%s = %q; must stay unset when TF_LOG is set", name, got)
		}
	}
}
