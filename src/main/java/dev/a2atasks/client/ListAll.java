package dev.a2atasks.client;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

import dev.a2atasks.proto.v1.Task;

/**
 * The client jar's command line: walks every task of the caller with {@link TaskWalker#listAll}
 * (catch-up included) and prints a summary line, or each task with {@code --print}.
 *
 * <pre>
 * A2A_TOKEN=... java -jar a2a-tasks-client.jar --http https://tasks.example/a2a/v1
 * java -cp 'a2a-tasks-client.jar:deps/*' dev.a2atasks.client.ListAll --grpc host:443 --token-file token.jwt
 * </pre>
 *
 * Exit status: 0 done, 1 the walk failed (the message names the endpoint and the cause), 2 usage.
 */
public final class ListAll {

    private static final String USAGE = "usage: ListAll (--grpc host:port [--plaintext] [--agent-card URL] | --http URL)"
            + " [--token-file FILE] [--tenant T] [--page-size N] [--timeout-seconds N] [--print]\n"
            + "  the bearer token comes from --token-file, else from the A2A_TOKEN environment variable";

    private ListAll() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv("A2A_TOKEN"), System.out, System.err));
    }

    /** The command without the process around it: returns the exit status. */
    static int run(String[] args, String tokenFromEnvironment, PrintStream out, PrintStream err) {
        Deque<String> rest = new ArrayDeque<>(List.of(args));
        String grpc = null;
        String http = null;
        String card = null;
        String tokenFile = null;
        boolean plaintext = false;
        boolean print = false;
        ListFilter filter = ListFilter.all();
        Duration timeout = Duration.ofSeconds(30);
        try {
            while (!rest.isEmpty()) {
                String arg = rest.pop();
                switch (arg) {
                    case "--grpc" -> grpc = value(rest, arg);
                    case "--http" -> http = value(rest, arg);
                    case "--agent-card" -> card = value(rest, arg);
                    case "--token-file" -> tokenFile = value(rest, arg);
                    case "--plaintext" -> plaintext = true;
                    case "--print" -> print = true;
                    case "--tenant" -> filter = new ListFilter(value(rest, arg), null, null, null, 0, false, filter.pageSize());
                    case "--page-size" -> filter = filter.withPageSize(Integer.parseInt(value(rest, arg)));
                    case "--timeout-seconds" -> timeout = Duration.ofSeconds(Long.parseLong(value(rest, arg)));
                    default -> throw new IllegalArgumentException("unknown argument " + arg);
                }
            }
            if ((grpc == null) == (http == null)) {
                throw new IllegalArgumentException("give --grpc or --http, one of them");
            }
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage() + "\n" + USAGE);
            return 2;
        }
        Supplier<String> token = tokenFile == null ? () -> tokenFromEnvironment : fileToken(Path.of(tokenFile));
        try (TaskListing listing = grpc != null
                ? new GrpcTaskListing(grpc, plaintext, token, timeout, card == null ? null : URI.create(card))
                : new HttpTaskListing(URI.create(http), token, timeout)) {
            WalkResult result = new TaskWalker(listing).listAll(filter);
            if (print) {
                for (Task task : result.tasks().values()) {
                    out.println(task.getId() + " " + task.getStatus().getState().name());
                }
            }
            out.println("tasks=" + result.tasks().size() + " " + result.stats());
            return 0;
        } catch (ListingException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    private static Supplier<String> fileToken(Path file) {
        return () -> {
            try {
                return Files.readString(file, StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new ListingException(file.toString(), "UNAUTHENTICATED", "token file unreadable: " + e.getMessage(),
                        List.of(), e);
            }
        };
    }

    private static String value(Deque<String> rest, String option) {
        if (rest.isEmpty()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return rest.pop();
    }
}
