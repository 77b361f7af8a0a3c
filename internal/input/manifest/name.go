package manifest

// ObjectName is how messages and reports name an object: namespace/name,
// or name for an object without a namespace (cluster-scoped). An object
// with generateName and no name gets its name from the apiserver, a random
// suffix after generateName, and is named by what is known of it:
// namespace/generateName… (generateName), e.g. `default/route-…
// (generateName)`, not `default/`.
func ObjectName(namespace, name, generateName string) string {
	if name == "" && generateName != "" {
		name = generateName + "… (generateName)"
	}
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
