// Package convsetup sets what main sets before the conversions run:
// controller-gen-default conversion --setup example.com/convreg/convsetup.Setup.
package convsetup

import "example.com/convreg/internal/conversion"

// Setup is main's conversion.SetUnit.
func Setup() { conversion.SetUnit("cm") }
