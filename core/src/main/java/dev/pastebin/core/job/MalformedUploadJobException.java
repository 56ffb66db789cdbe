package dev.pastebin.core.job;

/** A queue message that is not a valid upload job of a version this code understands (a poison message). */
public class MalformedUploadJobException extends Exception {

    public MalformedUploadJobException(String message) {
        super(message);
    }

    public MalformedUploadJobException(String message, Throwable cause) {
        super(message, cause);
    }
}
