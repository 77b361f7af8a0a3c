package objectpath

import (
	"fmt"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kubeversion "k8s.io/apimachinery/pkg/version"
)

// deprecationWarning is the warning the CRD handler adds to every request
// at a version (customresource_handler.go: getOrCreateServingInfoFor
// collects it per version, ServeHTTP adds it with warning.AddWarning
// before any handler runs), which kubectl prints as `Warning: <text>`:
// the version's deprecationWarning when set, else, for a deprecated
// version, defaultDeprecationWarning's text; "" for a version that is not
// deprecated (the recorder drops an empty warning).
func deprecationWarning(crd *apiextensionsv1.CustomResourceDefinition, version string) string {
	for _, v := range crd.Spec.Versions {
		switch {
		case v.Name != version || !v.Deprecated:
		case v.DeprecationWarning != nil:
			return *v.DeprecationWarning
		default:
			return defaultDeprecationWarning(version, crd.Spec)
		}
	}
	return ""
}

// defaultDeprecationWarning is the apiserver's text for a deprecated
// version without deprecationWarning (k8s.io/apiextensions-apiserver
// pkg/apiserver/customresource_handler.go, defaultDeprecationWarning,
// unexported): "<group>/<version> <Kind> is deprecated", followed by
// "; use <group>/<newer> <Kind>" naming the newest served, not deprecated
// version newer than it by kube-aware version order (v2 > v1 > v1beta2 >
// v1alpha1), when there is one.
func defaultDeprecationWarning(deprecated string, spec apiextensionsv1.CustomResourceDefinitionSpec) string {
	msg := fmt.Sprintf("%s/%s %s is deprecated", spec.Group, deprecated, spec.Names.Kind)
	var newer []string
	for _, v := range spec.Versions {
		if v.Served && !v.Deprecated && kubeversion.CompareKubeAwareVersionStrings(deprecated, v.Name) < 0 {
			newer = append(newer, v.Name)
		}
	}
	if len(newer) == 0 {
		return msg
	}
	newest := slices.MaxFunc(newer, kubeversion.CompareKubeAwareVersionStrings)
	return msg + fmt.Sprintf("; use %s/%s %s", spec.Group, newest, spec.Names.Kind)
}
