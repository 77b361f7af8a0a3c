// +implicitDefaults=false

package off
