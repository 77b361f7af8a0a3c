// Package webhooks sets up the Gadget webhooks, as cluster-api's
// core/webhooks/admission does.
package webhooks

import (
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "example.com/convreg/api/v1"
	"example.com/convreg/internal/conversion"
)

// SetupGadgetWebhook registers the Gadget conversion webhook.
func SetupGadgetWebhook(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &v1.Gadget{}).
		WithConverter(conversion.Gadget).
		Complete()
}
