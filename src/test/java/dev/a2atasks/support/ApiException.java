package dev.a2atasks.support;

/** Thrown by a {@link TaskApi} when the service answered with an error. */
public class ApiException extends RuntimeException {
    private final ApiError error;

    public ApiException(ApiError error) {
        super(error.toString());
        this.error = error;
    }

    public ApiError error() {
        return error;
    }
}
