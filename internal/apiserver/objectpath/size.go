package objectpath

import (
	"bytes"
	"context"
	"fmt"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/kubernetes"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Limits are the size limits a create meets, in bytes.
type Limits struct {
	// MaxRequestBodyBytes is the apiserver's limit on a request body
	// (k8s.io/apiserver pkg/server/config.go: MaxRequestBodyBytes, 3 MiB;
	// kube-apiserver has no flag for it).
	MaxRequestBodyBytes int64
	// EtcdMaxRequestBytes is etcd's --max-request-bytes (1.5 MiB by
	// default, as envtest runs it): the largest raft request etcd accepts
	// (etcdserver/v3_server.go, processInternalRaftRequestOnce).
	EtcdMaxRequestBytes int
	// EtcdMaxCallSendMsgSize is the largest gRPC message the apiserver's
	// etcd client sends (clientv3's default, 2 MiB; the apiserver sets
	// none).
	EtcdMaxCallSendMsgSize int
	// EtcdMemberID is the etcd member's ID, whose low 16 bits lead the ID
	// of every request it makes (idutil.NewGenerator), and so set how many
	// bytes that ID takes: 9 or 10 in most clusters. Zero assumes 10.
	EtcdMemberID uint64
}

// The defaults of Limits.
const (
	DefaultMaxRequestBodyBytes    = 3 * 1024 * 1024
	DefaultEtcdMaxRequestBytes    = 1536 * 1024 // 1.5 MiB (etcd embed.DefaultMaxRequestBytes)
	DefaultEtcdMaxCallSendMsgSize = 2 * 1024 * 1024
	// etcdKeyPrefix is the apiserver's --etcd-prefix default.
	etcdKeyPrefix = "/registry"
)

func (l Limits) withDefaults() Limits {
	if l.MaxRequestBodyBytes == 0 {
		l.MaxRequestBodyBytes = DefaultMaxRequestBodyBytes
	}
	if l.EtcdMaxRequestBytes == 0 {
		l.EtcdMaxRequestBytes = DefaultEtcdMaxRequestBytes
	}
	if l.EtcdMaxCallSendMsgSize == 0 {
		l.EtcdMaxCallSendMsgSize = DefaultEtcdMaxCallSendMsgSize
	}
	return l
}

// RequestBody is obj as kubectl create and apply (and client-go's dynamic
// client) send it: encoded by unstructured.UnstructuredJSONScheme, which is
// compact JSON with sorted keys and a final newline. (Client-side kubectl
// apply first adds the kubectl.kubernetes.io/last-applied-configuration
// annotation, which holds the object's JSON once more.)
func RequestBody(obj map[string]any) ([]byte, error) {
	return runtime.Encode(unstructured.UnstructuredJSONScheme, &unstructured.Unstructured{Object: obj})
}

// StorageBytes is what the storage codec writes to etcd for obj, an object
// of the pipeline's version as created: obj converted to the storage
// version (apiVersion only, as the None strategy converts) and pruned with
// that version's schema (schemaCoercingConverter), then encoded by
// unstructured.UnstructuredJSONScheme, the codec of custom resources
// (apiextensions-apiserver pkg/cmd/server/options NewCRDRESTOptionsGetter;
// CBOR only with the alpha CBORServingAndStorage gate). etcd stores these
// bytes as they are: envtest configures no encryption at rest.
func (p *Pipeline) StorageBytes(obj map[string]any) ([]byte, error) {
	if err := p.Build(); err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: obj}
	if p.storageVersion != p.gvk.Version {
		u = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
		u.SetAPIVersion(p.gvk.Group + "/" + p.storageVersion)
		if _, err := coerceWith(u, p.storageStructural, p.preserveUnknownFields, false); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	if err := unstructured.UnstructuredJSONScheme.Encode(u, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Key is the etcd key of the object named name in namespace ns ("" for a
// cluster-scoped kind): the apiserver's --etcd-prefix (/registry), then
// group/resource (SimpleStorageFactory.ResourcePrefix), then
// namespace/name (registry.NamespaceKeyFunc) or name
// (NoNamespaceKeyFunc).
func (p *Pipeline) Key(ns, name string) string {
	key := etcdKeyPrefix + "/" + p.gvk.Group + "/" + p.resource
	if p.namespaced {
		key += "/" + ns
	}
	return key + "/" + name
}

// CheckStorageSize says whether etcd accepts the write of value at key,
// and if not, returns the error the apiserver answers with (a 500 whose
// message is the etcd client's error). The create and update handlers
// retry once without managedFields when etcd refuses an object as too
// large, so only the object without them counts. The request is the
// transaction the apiserver's etcd client builds
// (kubernetes.Client.OptimisticPut): for a create (revision 0,
// storage/etcd3 store.Create), a put if the key does not exist; for an
// update (GuaranteedUpdate), a put if the key is still at revision, else a
// get of it:
//
//   - the client refuses to send a transaction larger than
//     EtcdMaxCallSendMsgSize: "rpc error: code = ResourceExhausted desc =
//     trying to send message larger than max (N vs. 2097152)";
//   - etcd wraps it in a raft request with a header that carries the
//     request's ID, and refuses one larger than EtcdMaxRequestBytes:
//     "etcdserver: request is too large".
func CheckStorageSize(key string, value []byte, revision int64, limits Limits) error {
	limits = limits.withDefaults()
	txn, err := putTxn(key, value, revision)
	if err != nil {
		return err
	}
	if n := proto.Size(txn); n > limits.EtcdMaxCallSendMsgSize {
		return status.Errorf(codes.ResourceExhausted, "trying to send message larger than max (%d vs. %d)", n, limits.EtcdMaxCallSendMsgSize)
	}
	if n := RaftRequestSize(txn, limits.EtcdMemberID); n > limits.EtcdMaxRequestBytes {
		return rpctypes.ErrRequestTooLarge
	}
	return nil
}

// RaftRequestSize is the size etcd compares with --max-request-bytes: the
// raft request that wraps txn, with the header that holds its ID
// (processInternalRaftRequestOnce). The ID's low 48 bits are a clock and a
// counter, its top 16 the low bits of the member's ID; memberID 0 assumes
// that the top bit is set (a 10-byte ID).
func RaftRequestSize(txn *pb.TxnRequest, memberID uint64) int {
	id := uint64(uint16(memberID))<<48 | 1<<47
	if memberID == 0 {
		id = 1 << 63
	}
	return proto.Size(&pb.InternalRaftRequest{Header: &pb.RequestHeader{ID: id}, Txn: txn})
}

// putTxn is the transaction the apiserver's etcd client sends to write
// value at key, expecting revision (0 for a create): what
// kubernetes.Client.OptimisticPut builds as store.Create and
// store.GuaranteedUpdate call it, captured from a KV client that sends
// nothing.
func putTxn(key string, value []byte, revision int64) (*pb.TxnRequest, error) {
	kv := &capturingKV{}
	c := kubernetes.Client{Client: &clientv3.Client{KV: clientv3.NewKVFromKVClient(kv, nil)}}
	if _, err := c.OptimisticPut(context.Background(), key, value, revision, kubernetes.PutOptions{GetOnFailure: revision != 0}); err != nil {
		return nil, err
	}
	if kv.txn == nil {
		return nil, fmt.Errorf("the etcd client sent no transaction")
	}
	return kv.txn, nil
}

// capturingKV is an etcd KV client that keeps the transaction it is asked
// to send and answers that it succeeded.
type capturingKV struct {
	pb.KVClient // nil: only Txn is called
	txn         *pb.TxnRequest
}

func (c *capturingKV) Txn(_ context.Context, in *pb.TxnRequest, _ ...grpc.CallOption) (*pb.TxnResponse, error) {
	c.txn = in
	return &pb.TxnResponse{Header: &pb.ResponseHeader{}, Succeeded: true}, nil
}
