package impact

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiserverconversion "k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/util/webhook"
	"k8s.io/utils/ptr"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
)

// convProgram is --convert: a running conversion program (package
// internal/convprog: the API's own conversion.Hub and
// conversion.Convertible methods behind controller-runtime's conversion
// webhook handler), served over HTTPS on the loopback interface, and the
// apiserver's own converter for CRDs with spec.conversion.strategy:
// Webhook (apiextensions-apiserver pkg/apiserver/conversion,
// CRConverterFactory.NewConverter) pointed at it. The apiserver's webhook
// converter builds the ConversionReview, checks the response (UID, count,
// apiVersion; the same kind, name, namespace and UID:
// validateConvertedObject) and keeps the object's metadata but for labels
// and annotations (restoreObjectMeta), as it does for a real webhook.
type convProgram struct {
	// Packages are the packages the program registers.
	Packages []string
	// Kinds are the group/kinds it converts (controller-runtime's
	// IsConvertible, or a registered Converter), and Others those it
	// holds but does not convert.
	Kinds, Others []convprog.Kind
	// MissingSetup are the calls of main that set state the conversions
	// read, when --setup is not given (convprog.Program.MissingSetup): a
	// conversion that fails says so.
	MissingSetup []convprog.SetupCall

	prog    *convprog.Program
	proc    *convprog.Process
	server  *httptest.Server
	factory *apiserverconversion.CRConverterFactory
	caPEM   []byte

	mu   sync.Mutex
	defs []*definition // the definitions it converts, for Close
}

// startProgram builds (or takes from the cache) and starts the
// conversion program of what convprog.Discover finds in o.Patterns
// (convprog.ErrNothingToConvert: nothing converts). Without o.Setup, the
// calls of main that set state the conversions read are noted on o.Log.
func startProgram(ctx context.Context, o convprog.Options) (*convProgram, error) {
	if o.Discovery == nil {
		d, err := convprog.Discover(ctx, o)
		if err != nil {
			return nil, err
		}
		o.Discovery = d
	}
	if o.Setup == "" && o.Log != nil && !o.Discovery.Empty() {
		cwd, _ := os.Getwd()
		for _, c := range o.Discovery.SetupCalls {
			pos := c.Pos
			if rel, err := filepath.Rel(cwd, pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
				pos.Filename = filepath.ToSlash(rel)
			}
			fmt.Fprintf(o.Log, "%s: note: %s\n", pos, c.Note())
		}
	}
	prog, err := convprog.Build(ctx, o)
	if err != nil {
		return nil, err
	}
	proc, err := prog.Start(ctx)
	if err != nil {
		_ = prog.Close() // Start's error is the one to report
		return nil, err
	}
	// a second under the apiserver's webhook client's timeout (the same
	// 30 s): a conversion that hangs fails with the program's message,
	// not with whichever of the two timeouts fires first
	proc.Timeout = convprog.DefaultTimeout - time.Second
	c := &convProgram{Packages: prog.Packages, MissingSetup: prog.MissingSetup, prog: prog, proc: proc}
	for _, k := range proc.Kinds() {
		if k.Convertible {
			c.Kinds = append(c.Kinds, k)
		} else {
			c.Others = append(c.Others, k)
		}
	}
	if len(c.Kinds) == 0 {
		// the program is not used: noKindConverts is the one to report
		_ = proc.Close()
		_ = prog.Close()
		return nil, &noKindConverts{c.Others}
	}
	// the apiserver's webhook client speaks HTTPS only; connections the
	// client drops when the run ends are no news
	c.server = httptest.NewUnstartedServer(proc.Handler())
	c.server.Config.ErrorLog = log.New(io.Discard, "", 0)
	c.server.StartTLS()
	c.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.server.Certificate().Raw})
	// the service resolver is never asked: the webhook is a URL
	if c.factory, err = apiserverconversion.NewCRConverterFactory(webhook.NewDefaultServiceResolver(), nil); err != nil {
		_ = c.Close() // NewCRConverterFactory's error is the one to report
		return nil, err
	}
	return c, nil
}

// noKindConverts is startProgram's error when the program holds kinds but
// converts none (each has one version, or a problem the program says):
// as ErrNothingToConvert, versions are converted as with the None
// strategy, and its text says why for each kind.
type noKindConverts struct{ others []convprog.Kind }

func (e *noKindConverts) Error() string {
	var why []string
	for _, k := range e.others {
		switch {
		case k.Problem != "":
			why = append(why, fmt.Sprintf("%s: %s", k.GroupKind(), k.Problem))
		case len(k.Versions) < 2:
			why = append(why, fmt.Sprintf("%s: one version (%s)", k.GroupKind(), strings.Join(k.Versions, "")))
		default:
			why = append(why, fmt.Sprintf("%s: no hub with spokes among %s", k.GroupKind(), strings.Join(k.Versions, ", ")))
		}
	}
	if len(why) == 0 {
		return "the API's code holds no kind"
	}
	return "no kind the API's code holds converts between versions: " + strings.Join(why, "; ")
}

func (e *noKindConverts) Is(target error) bool { return target == convprog.ErrNothingToConvert }

// Close stops the program and forgets the definitions it converted.
func (c *convProgram) Close() error {
	c.mu.Lock()
	for _, d := range c.defs {
		programConverters.Delete(d)
		setupHints.Delete(d)
	}
	c.defs = nil
	c.mu.Unlock()
	if c.server != nil {
		c.server.Close()
	}
	err := c.proc.Close()
	// removes an uncached binary: failing leaves a stray file, loses nothing
	_ = c.prog.Close()
	return err
}

// serves says whether the program converts gk.
func (c *convProgram) serves(gk schema.GroupKind) bool {
	return slices.ContainsFunc(c.Kinds, func(k convprog.Kind) bool { return k.GroupKind() == gk })
}

// converter is the apiserver's converter for crd deployed with the
// program as its conversion webhook: crd with spec.conversion set to the
// Webhook strategy, at the program's URL (kubebuilder's CRD files say
// None; its kustomize patch, config/crd/patches/webhook_in_*.yaml, sets
// the webhook when the CRD is deployed).
func (c *convProgram) converter(crd *apiextensionsv1.CustomResourceDefinition) (runtime.ObjectConvertor, error) {
	crd = crd.DeepCopy()
	crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{
		Strategy: apiextensionsv1.WebhookConverter,
		Webhook: &apiextensionsv1.WebhookConversion{
			ClientConfig:             &apiextensionsv1.WebhookClientConfig{URL: ptr.To(c.server.URL + "/convert"), CABundle: c.caPEM},
			ConversionReviewVersions: []string{"v1"},
		},
	}
	safe, _, err := c.factory.NewConverter(crd)
	return safe, err
}

// programConverters holds, for each definition whose objects the program
// converts, the storage codec's converter (the apiserver's safe converter
// around its webhook converter); a definition without one converts as with
// the None strategy.
var programConverters sync.Map // *definition -> runtime.ObjectConvertor

// converterOf is d's converter under --convert, or nil.
func converterOf(d *definition) runtime.ObjectConvertor {
	if c, ok := programConverters.Load(d); ok {
		return c.(runtime.ObjectConvertor)
	}
	return nil
}

// useConversion makes the CRDs of OLD and NEW whose group/kind c converts
// convert between versions through c, as the apiserver does with a
// conversion webhook, and says so in their findings. It returns the CRDs
// it applies to, sorted.
func (a *Analyzer) useConversion(c *convProgram) ([]string, error) {
	var names []string
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, side := range []map[string]*definition{a.old, a.new} {
		for name, d := range side {
			if !c.serves(d.groupKind()) {
				continue
			}
			conv, err := c.converter(d.crd)
			if err != nil {
				return nil, fmt.Errorf("CRD %s: %w", name, err)
			}
			programConverters.Store(d, conv)
			if c.prog.FailuresUnknown() {
				setupHints.Store(d, c.MissingSetup[0].Note())
			}
			c.defs = append(c.defs, d)
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	for _, name := range names {
		fs := a.findings[name]
		for i, f := range fs {
			if f.Rule == FindingWebhook {
				fs[i].setMessage("the conversion webhook is the API's own code (--convert): objects are converted between versions by it")
			}
		}
	}
	return names, nil
}

// convert is the storage codec's conversion of u to version: the
// apiserver's converter under --convert (which calls the webhook only when
// the version changes), else the None strategy's (only apiVersion
// changes). u may be changed.
func (d *definition) convert(u *unstructured.Unstructured, version string) (*unstructured.Unstructured, error) {
	conv := converterOf(d)
	if conv == nil {
		u.SetAPIVersion(d.apiVersion(version))
		return u, nil
	}
	out, err := conv.ConvertToVersion(u, schema.GroupVersion{Group: d.crd.Spec.Group, Version: version})
	if err != nil {
		ce := &ConversionError{CRD: d.crd.Name, From: u.GetAPIVersion(), To: d.apiVersion(version), Err: err}
		if h, ok := setupHints.Load(d); ok {
			ce.Setup = h.(string)
		}
		return nil, ce
	}
	cu, ok := out.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("CRD %s: the converter returned a %T", d.crd.Name, out)
	}
	return cu, nil
}

// createRead is what the create of sent at version reads back, from
// created, what the pipeline's create read back (objectpath.Create, whose
// storage round trip converts as with the None strategy). Under --convert,
// at another version than the storage version, it is the request as the
// create decoded it (pipeline's Decode: pruned and defaulted in its own
// version) with the metadata the create gave it, and the status it kept
// (the status subresource's PrepareForCreate drops it), converted to the
// storage version by the API's code and read back at version (toStorage,
// fromStorage); otherwise created itself.
func (d *definition) createRead(p *objectpath.Pipeline, sent, created map[string]any, version string) (map[string]any, error) {
	if converterOf(d) == nil || version == d.storageVersion {
		return created, nil
	}
	dec := p.Decode(sent)
	if len(dec.Errors) > 0 {
		return created, nil // refused before it is stored: shown as the pipeline has it
	}
	obj := dec.Object
	if md, ok := created["metadata"]; ok {
		obj["metadata"] = runtime.DeepCopyJSONValue(md)
	}
	if _, status := p.Strategies(); status != nil {
		delete(obj, "status")
		if st, ok := created["status"]; ok {
			obj["status"] = runtime.DeepCopyJSONValue(st)
		}
	}
	etcd, err := d.toStorage(obj)
	if err != nil {
		return nil, err
	}
	return d.fromStorage(etcd, version)
}

// ConversionError is a conversion the webhook (the API's code) failed: the
// apiserver answers the request with an error (500). Request is the
// request that needs it, when known (atRequest).
type ConversionError struct {
	CRD, From, To string
	Request       string
	Err           error
	// Setup says, when main sets state the conversions read and --setup
	// is not given, that the failure may be that state's absence.
	Setup string
}

func (e *ConversionError) Error() string {
	if e.Setup != "" {
		return fmt.Sprintf("CRD %s: converting %s to %s: %v (likely for want of setup: %s)", e.CRD, e.From, e.To, e.Err, e.Setup)
	}
	return fmt.Sprintf("CRD %s: converting %s to %s: %v", e.CRD, e.From, e.To, e.Err)
}

// setupHints holds, for each definition converted by a program that
// misses main's setup calls, the note ConversionError.Setup gets.
var setupHints sync.Map // *definition -> string

func (e *ConversionError) Unwrap() error { return e.Err }

// The requests a conversion serves (ConversionError.Request).
const (
	RequestCreate        = "create under OLD"
	RequestRead          = "GET under NEW"
	RequestReadAtStorage = "GET at NEW's storage version"
	RequestReadBack      = "the read converted back to the object's version"
	RequestNextWrite     = "the next write under NEW"
	// RequestReadAfterWrite is not a conversion error (those are
	// ListFailures) but what names another error of those reads.
	RequestReadAfterWrite = "a GET after the next write"
)

// atRequest names the request a conversion error fails, unless it is
// named already; other errors are returned as they are.
func atRequest(err error, request string) error {
	var ce *ConversionError
	if errors.As(err, &ce) && ce.Request == "" {
		ce.Request = request
	}
	return err
}

// ConversionFailure is Record.ConversionFailed: the conversion by the API's
// code that failed, the request it fails, and its error. Unknown, when
// set, says why whether it fails with main's state is unknown
// (ConversionUnknown).
type ConversionFailure struct {
	Request string `json:"request"`
	From    string `json:"from"`
	To      string `json:"to"`
	Message string `json:"message"`
	Unknown string `json:"unknown,omitempty"`
}

func (f *ConversionFailure) String() string {
	return fmt.Sprintf("%s: converting %s to %s: %s", f.Request, f.From, f.To, f.Message)
}

// conversionNoteFor is the note that ends a text report: which CRDs the
// API's code converts, and how the others are converted.
func conversionNoteFor(converted []string) string {
	if len(converted) == 0 {
		return conversionNote
	}
	return "Converted between versions by the API's own code (--convert, as its conversion webhook): " +
		strings.Join(converted, ", ") + ". Other CRDs: as with the None strategy (only apiVersion changes)."
}
