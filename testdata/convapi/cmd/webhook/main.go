// Command webhook serves the conversion webhook of the Widget API:
// controller-runtime's webhook server with conversion.NewWebhookHandler at
// /convert, converting between v1beta1 and the hub v1 through the
// conversion.Hub and conversion.Convertible methods of the api packages.
//
//	webhook --cert-dir DIR [--host 127.0.0.1] [--port 9443]
//
// DIR holds tls.crt and tls.key. The server runs until SIGINT or SIGTERM.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/go-logr/logr/funcr"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager/signals"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	v1 "example.com/convapi/api/v1"
	"example.com/convapi/api/v1beta1"
)

func main() {
	certDir := flag.String("cert-dir", "", "directory that holds the serving certificate tls.crt and its key tls.key")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", webhook.DefaultPort, "port to listen on")
	flag.Parse()
	if *certDir == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}

	logf.SetLogger(funcr.New(func(prefix, args string) {
		fmt.Fprintln(os.Stderr, prefix, args)
	}, funcr.Options{}))

	scheme := runtime.NewScheme()
	utilruntime.Must(v1.AddToScheme(scheme))
	utilruntime.Must(v1beta1.AddToScheme(scheme))

	server := webhook.NewServer(webhook.Options{Host: *host, Port: *port, CertDir: *certDir})
	// An empty registry: the handler falls back to the types' own
	// Hub/Convertible methods.
	server.Register("/convert", conversion.NewWebhookHandler(scheme, conversion.NewRegistry()))
	if err := server.Start(signals.SetupSignalHandler()); err != nil {
		fmt.Fprintln(os.Stderr, "webhook:", err)
		os.Exit(1)
	}
}
