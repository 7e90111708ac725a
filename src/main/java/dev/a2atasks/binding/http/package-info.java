/**
 * The one HTTP server every binding is served on (gRPC included: it runs on the same Vert.x
 * server): its limits ({@link dev.a2atasks.binding.http.HttpLimitsConfig}), the watch that cuts
 * off a response whose reader stopped reading ({@link dev.a2atasks.binding.http.StallWatch}), and
 * that watch's route for gRPC server streams ({@link dev.a2atasks.binding.http.GrpcStreamStalls}).
 * Here so that neither the gRPC nor the JSON bindings reach into the other for them.
 * May use: proto (the gRPC service names), Vert.x; nothing of the service's own packages.
 */
package dev.a2atasks.binding.http;
