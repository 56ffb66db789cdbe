package dev.pastebin.create;

import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Short codes drawn from {@code test.short-codes} first (to force real primary-key collisions), then random.
 * Only in contexts that set that property.
 */
@Singleton
@Replaces(ShortCodes.class)
@Requires(property = "test.short-codes")
class FixedShortCodes extends ShortCodes {

    private final Deque<String> queued;

    FixedShortCodes(PasteProperties properties, @Property(name = "test.short-codes") List<String> codes) {
        super(properties);
        this.queued = new ArrayDeque<>(codes);
    }

    @Override
    public synchronized String next() {
        return queued.isEmpty() ? super.next() : queued.poll();
    }
}
