// +implicitDefaults=true

package conflict
