// Package webhooks sets up the Gadget conversion webhook, as a
// kubebuilder project's internal/webhook does.
package webhooks

import (
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "example.com/crversions/api/v1"
	"example.com/crversions/internal/conversion"
)

// SetupGadgetWebhook registers the Gadget conversion webhook.
func SetupGadgetWebhook(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &v1.Gadget{}).
		WithConverter(conversion.Gadget).
		Complete()
}
