package io.ax.executor;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** A response body read to its end, of which only the first bytes are kept (see {@link BoundedCapture}). */
final class BoundedBody implements HttpResponse.BodySubscriber<BoundedCapture> {

    private final BoundedCapture capture;
    private final CompletableFuture<BoundedCapture> result = new CompletableFuture<>();

    BoundedBody(int limit) {
        this.capture = new BoundedCapture(limit);
    }

    @Override
    public CompletionStage<BoundedCapture> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer buffer : buffers) {
            capture.add(buffer);
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(capture);
    }
}
