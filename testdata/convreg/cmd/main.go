// Command manager serves the Gadget webhooks.
package main

import (
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "example.com/convreg/api/v1"
	"example.com/convreg/api/v1beta1"
	"example.com/convreg/internal/conversion"
	"example.com/convreg/internal/webhooks"
)

func main() {
	scheme := runtime.NewScheme()
	_ = v1.AddToScheme(scheme)
	_ = v1beta1.AddToScheme(scheme)
	conversion.SetUnit("cm")
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		os.Exit(1)
	}
	if err := webhooks.SetupGadgetWebhook(mgr); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
