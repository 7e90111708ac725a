package dev.a2atasks.client;

import dev.a2atasks.proto.v1.ListTasksResponse;

/** Sees every page as it arrives (progress, logging, demos); called before the next page is asked for. */
@FunctionalInterface
public interface WalkListener {

    enum Pass {
        MAIN, CATCH_UP
    }

    /** @param number 1 for the first page of each pass */
    void onPage(Pass pass, int number, ListTasksResponse page);

    WalkListener NONE = (pass, number, page) -> {
    };
}
