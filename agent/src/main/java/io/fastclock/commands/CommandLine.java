package io.fastclock.commands;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One command's arguments, read the same way for every command: {@code --help} or {@code -h}
 * anywhere asks for its help; its flags ({@code --json}); its options with a value, as
 * {@code --name VALUE} or {@code --name=VALUE}; and up to a number of positional arguments, the
 * first of which may be anything (so that "-5" is named as not a PID rather than as an option) and
 * the later ones not starting with "-". Anything else is an argument the command does not take.
 */
final class CommandLine {
    private final Set<String> flags = new HashSet<>();
    private final Map<String, String> values = new HashMap<>();
    private final List<String> positional = new ArrayList<>();

    private CommandLine() {}

    /**
     * @param maxPositional how many positional arguments the command takes
     * @param flagNames     its flags
     * @param options       its options with a value, each with what its value is ("a number of seconds")
     */
    static CommandLine parse(String[] args, int maxPositional, Set<String> flagNames, Map<String, String> options) throws Exit {
        CommandLine line = new CommandLine();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (Commands.isHelp(arg)) {
                throw Exit.help();
            }
            if (flagNames.contains(arg)) {
                line.flags.add(arg);
                continue;
            }
            int eq = arg.startsWith("--") ? arg.indexOf('=') : -1;
            String name = eq > 0 ? arg.substring(0, eq) : arg;
            if (options.containsKey(name)) {
                String value = eq > 0 ? arg.substring(eq + 1) : i + 1 < args.length ? args[++i] : null;
                if (value == null) {
                    throw Exit.usage(name + " needs " + options.get(name));
                }
                line.values.put(name, value);
                continue;
            }
            if (line.positional.size() < maxPositional && (line.positional.isEmpty() || !arg.startsWith("-"))) {
                line.positional.add(arg);
                continue;
            }
            throw Exit.unexpected(arg);
        }
        return line;
    }

    static CommandLine parse(String[] args, int maxPositional, Set<String> flagNames) throws Exit {
        return parse(args, maxPositional, flagNames, Collections.<String, String>emptyMap());
    }

    boolean has(String flag) {
        return flags.contains(flag);
    }

    /** An option's value, or null when it was not given. */
    String value(String option) {
        return values.get(option);
    }

    /** The i-th positional argument (from 0), or null when there are fewer. */
    String positional(int i) {
        return i < positional.size() ? positional.get(i) : null;
    }
}
