/* time_left_feed PIPE N: serves GEM's time_left file as a named pipe, so that GEM's stop on the
 * time left (Lctl_cktimeleft_L: gem_muststop reads the file on the first PE at the end of every
 * step, step 0 included, and stops when the time left is under its mean step time) fires at a
 * chosen step: the first N reads get a day left, every later read none.
 *
 * One value per read: the pipe stays open here (read-write, so that a value waits in it while no
 * reader has it open), and the next value goes in only once the one before was read out. Each of
 * GEM's reads takes one line (a list-directed read of one number) in one read(2), since a line
 * shorter than PIPE_BUF is written at once. Prints one line per value served; runs until killed.
 * (tests/gem/run_gem.sh builds and starts it for the +stop cases.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *what, const char *path)
{
    fprintf(stderr, "time_left_feed: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: time_left_feed PIPE N\n");
        return 2;
    }
    const char *path = argv[1];
    long before_stop = strtol(argv[2], NULL, 10);
    if (mkfifo(path, 0644) != 0 && errno != EEXIST) fail("cannot make", path);
    int fd = open(path, O_RDWR);
    if (fd < 0) fail("cannot open", path);
    const struct timespec poll = {0, 2000000};
    for (long served = 0;; served++) {
        /* seconds left, as a batch system would write them */
        const char *value = served < before_stop ? "86400\n" : "0\n";
        if (write(fd, value, strlen(value)) != (ssize_t)strlen(value)) fail("cannot write", path);
        printf("value %ld: %s", served, value);
        fflush(stdout);
        for (int unread = 1; unread > 0;) {
            nanosleep(&poll, NULL);
            if (ioctl(fd, FIONREAD, &unread) != 0) fail("cannot query", path);
        }
    }
}
