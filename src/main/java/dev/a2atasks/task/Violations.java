package dev.a2atasks.task;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.a2atasks.error.A2AException;
import dev.a2atasks.error.FieldViolation;

/**
 * The violations of one request in field order: a field the binding could not decode is
 * reported as such, and its typed check is skipped (there is no typed value to check).
 */
final class Violations {
    private final List<FieldViolation> undecodable;
    private final List<FieldViolation> found = new ArrayList<>();

    Violations(List<FieldViolation> undecodable) {
        this.undecodable = undecodable;
    }

    <T> T check(String field, Supplier<T> typedCheck) {
        if (undecodable.isEmpty()) {
            return typedCheck.get(); // the usual case, on every request: no stream per field
        }
        List<FieldViolation> mine = undecodable.stream().filter(u -> u.field().equals(field)).toList();
        if (!mine.isEmpty()) {
            found.addAll(mine);
            return null;
        }
        return typedCheck.get();
    }

    void add(FieldViolation violation) {
        found.add(violation);
    }

    boolean has(String field) {
        return found.stream().anyMatch(f -> f.field().equals(field));
    }

    void throwIfAny() {
        undecodable.stream().filter(u -> !found.contains(u)).forEach(found::add); // a field no check names
        if (!found.isEmpty()) {
            throw A2AException.invalidParams(found);
        }
    }
}
