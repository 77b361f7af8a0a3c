package defaultgen_test

import (
	"context"
	"math"
	"testing"

	corev1 "k8s.io/api/core/v1"

	featuresv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/features/v1"
	workloadv1 "github.com/controller-gen-default/controller-gen-default/testdata/api/workload/v1"
)

// TestDeclarativeDefaulter: the generated controller-runtime CustomDefaulter
// applies the package's defaults, top-down, and refuses other types.
func TestDeclarativeDefaulter(t *testing.T) {
	tour := &featuresv1.Tour{}
	if err := (featuresv1.DeclarativeDefaulter{}).Default(context.Background(), tour); err != nil {
		t.Fatal(err)
	}
	s := tour.Spec
	if s.Protocol != "TCP" || s.PeerProtocol != "UDP" || s.Retries != 5 || s.Tier != "gold" {
		t.Errorf("scalar defaults not applied: %+v", s)
	}
	if s.MaxBytes != math.MaxInt64 {
		t.Errorf("maxBytes = %d, want every digit of 9223372036854775807", s.MaxBytes)
	}
	if s.Backoff == nil || s.Backoff.Limit != 3 || s.Backoff.Strategy != "exponential" {
		t.Errorf("pointer default, then its nested default, not applied: %+v", s.Backoff)
	}
	set := &featuresv1.Tour{Spec: featuresv1.TourSpec{Protocol: "UDP", Backoff: &featuresv1.Backoff{Limit: 9}}}
	_ = featuresv1.DeclarativeDefaulter{}.Default(context.Background(), set)
	if set.Spec.Protocol != "UDP" || set.Spec.Backoff.Limit != 9 || set.Spec.Backoff.Strategy != "exponential" {
		t.Errorf("set values were overwritten or nested defaults missed: %+v %+v", set.Spec, set.Spec.Backoff)
	}
	if err := (featuresv1.DeclarativeDefaulter{}).Default(context.Background(), &corev1.Pod{}); err == nil {
		t.Error("a type of another package was accepted")
	}

	// k8s.io/api's own +default=ref(...) markers, inside an embedded PodTemplateSpec
	w := &workloadv1.Workload{}
	w.Spec.Template.Spec.Volumes = []corev1.Volume{{VolumeSource: corev1.VolumeSource{AzureDisk: &corev1.AzureDiskVolumeSource{}}}}
	workloadv1.SetObjectDefaults_Workload(w)
	az := w.Spec.Template.Spec.Volumes[0].AzureDisk
	if az.CachingMode == nil || *az.CachingMode != corev1.AzureDataDiskCachingReadWrite || az.Kind == nil || *az.Kind != corev1.AzureSharedBlobDisk {
		t.Errorf("ref() defaults of k8s.io/api not applied: %+v", az)
	}
	if w.Spec.Replicas == nil || *w.Spec.Replicas != 1 {
		t.Errorf("replicas = %v, want 1", w.Spec.Replicas)
	}
}
