// The floor under `cache gc` on this file system: what the system calls a collection needs cost
// with nothing else around them. On a store filled by `store-bench fill --entries N --dir DIR`:
//   gc-floor DIR scan THREADS          list every fan-out directory, fstatat every file and
//                                      read every record whole (what a collection's scan does)
//   gc-floor DIR unlink THREADS ORDER  remove every other file of each fan-out directory (half
//                                      the records and half the blobs), one directory per thread
//                                      at a time through its descriptor; ORDER is `listing`
//                                      (readdir order) or `inode` (sorted by inode number)
// Prints `<what> files=<n> <seconds>`.
//   cc -O2 -pthread -o gc-floor bench/gc-floor.c
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char directories[512][4096];
static int directoryCount;
static atomic_int next;
static atomic_long files;
static int unlinking, byInode;

struct entry {
    ino_t inode;
    char name[256];
};

static int compareInodes(const void *a, const void *b) {
    ino_t x = ((const struct entry *)a)->inode, y = ((const struct entry *)b)->inode;
    return x < y ? -1 : x > y;
}

static void one(const char *path, int isRecords) {
    DIR *stream = opendir(path);
    if (!stream) return;
    int descriptor = dirfd(stream);
    struct entry *entries = NULL;
    size_t count = 0, capacity = 0;
    struct dirent *item;
    while ((item = readdir(stream))) {
        if (item->d_name[0] == '.') continue;
        if (count == capacity) entries = realloc(entries, (capacity = capacity ? 2 * capacity : 1024) * sizeof *entries);
        entries[count].inode = item->d_ino;
        snprintf(entries[count].name, sizeof entries[count].name, "%s", item->d_name);
        count++;
    }
    long done = 0;
    if (unlinking) {
        size_t kept = 0;
        for (size_t index = 0; index < count; index += 2) entries[kept++] = entries[index];
        if (byInode) qsort(entries, kept, sizeof *entries, compareInodes);
        for (size_t index = 0; index < kept; index++) done += unlinkat(descriptor, entries[index].name, 0) == 0;
    } else {
        char buffer[8192];
        for (size_t index = 0; index < count; index++) {
            struct stat info;
            if (fstatat(descriptor, entries[index].name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
            done++;
            if (!isRecords) continue;
            int file = openat(descriptor, entries[index].name, O_RDONLY | O_CLOEXEC);
            if (file < 0) continue;
            if (read(file, buffer, sizeof buffer) < 0) perror("read");
            close(file);
        }
    }
    free(entries);
    closedir(stream);
    atomic_fetch_add(&files, done);
}

static void *worker(void *unused) {
    (void)unused;
    for (int index; (index = atomic_fetch_add(&next, 1)) < directoryCount;)
        one(directories[index], index < 256);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: gc-floor DIR scan|unlink THREADS [listing|inode]\n");
        return 64;
    }
    unlinking = strcmp(argv[2], "unlink") == 0;
    byInode = argc > 4 && strcmp(argv[4], "inode") == 0;
    int threads = atoi(argv[3]);
    for (int kind = 0; kind < 2; kind++)
        for (int index = 0; index < 256; index++)
            snprintf(directories[directoryCount++], sizeof directories[0], "%s/v1/%s/%02x", argv[1],
                     kind == 0 ? "records" : "blobs", index);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t workers[512];
    if (threads < 1 || threads > 512) threads = 512;
    for (int index = 0; index < threads; index++) pthread_create(&workers[index], NULL, worker, NULL);
    for (int index = 0; index < threads; index++) pthread_join(workers[index], NULL);
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%s%s threads=%d files=%ld %.4f\n", argv[2], unlinking ? (byInode ? "-inode" : "-listing") : "", threads,
           atomic_load(&files), (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9);
    return 0;
}
