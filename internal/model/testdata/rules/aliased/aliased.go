// Package aliased names declared.Deep by an alias.
package aliased

import "github.com/controller-gen-default/controller-gen-default/internal/model/testdata/rules/declared"

type Deep = declared.Deep
