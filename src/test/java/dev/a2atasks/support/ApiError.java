package dev.a2atasks.support;

import java.util.List;

/** An error as a test sees it on any binding: status name, message, BadRequest fields, ErrorInfo reason. */
public record ApiError(String status, String message, List<String> fields, String reason) {
}
