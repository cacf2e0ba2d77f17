/*
** workers.c -- the work queue of a parallel build (internal, pipeline_internal.h): items 0
** .. n-1 made by worker threads and taken by the calling thread strictly in index order,
** which is how spec/build3d-polys.md POLY-228 keeps every byte of a build whatever the
** thread count. The queue is a counter of the next item to start, bounded by a window
** of slots past the next item to take; nothing else is scheduled. The lowest file of the
** folder with units.c: it calls no other file of ref/build3d/pipeline/.
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"
#include "build3d/pipeline/pipeline_internal.h"

/* POLY-228: 0 = the processors online, capped at the maximum; at least 1. */
uint32_t opl_threads_resolve(uint32_t threads) {
  if (threads) return threads;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) return 1;
  return n > (long)OP_PIPELINE_MAX_THREADS ? OP_PIPELINE_MAX_THREADS : (uint32_t)n;
}

enum { SLOT_FREE, SLOT_BUSY, SLOT_DONE };

typedef struct slot_hdr {
  int state;
  op_status st;
  op_error err; /* the worker's error for this item (each worker writes only its own) */
} slot_hdr;

typedef struct queue {
  const opl_par *p;
  pthread_mutex_t mu;
  pthread_cond_t wake_workers, wake_taker;
  uint64_t next_start, next_take;
  uint32_t window;
  int stop;
  slot_hdr *hdr;      /* window entries */
  unsigned char *mem; /* window * slot_size */
} queue;

static void *slot_of(queue *q, uint64_t i) {
  return q->mem + (size_t)(i % q->window) * q->p->slot_size;
}

static void *worker_main(void *arg) {
  queue *q = arg;
  pthread_mutex_lock(&q->mu);
  for (;;) {
    while (!q->stop && q->next_start < q->p->n && q->next_start >= q->next_take + q->window)
      pthread_cond_wait(&q->wake_workers, &q->mu);
    if (q->stop || q->next_start >= q->p->n) break;
    uint64_t i = q->next_start++;
    slot_hdr *h = &q->hdr[i % q->window];
    h->state = SLOT_BUSY;
    pthread_mutex_unlock(&q->mu);
    void *slot = slot_of(q, i);
    memset(slot, 0, q->p->slot_size);
    memset(&h->err, 0, sizeof h->err);
    op_status st = q->p->work(q->p->ud, i, slot, &h->err);
    pthread_mutex_lock(&q->mu);
    h->st = st;
    h->state = SLOT_DONE;
    pthread_cond_signal(&q->wake_taker);
  }
  pthread_mutex_unlock(&q->mu);
  return NULL;
}

/* One thread: each item made and taken in turn (threads = 1, or no worker could start). */
static op_status run_serial(const opl_par *p, void *slot, op_error *err) {
  op_status st = OP_OK;
  for (uint64_t i = 0; st == OP_OK && i < p->n; i++) {
    op_error we;
    memset(slot, 0, p->slot_size);
    memset(&we, 0, sizeof we);
    op_status ws = p->work(p->ud, i, slot, &we);
    st = p->take(p->ud, i, slot, ws, &we, err);
  }
  return st;
}

op_status opl_par_run(const opl_par *p, op_error *err) {
  uint32_t nt = p->threads ? p->threads : 1;
  if ((uint64_t)nt > p->n) nt = p->n ? (uint32_t)p->n : 1; /* no idle workers */
  queue q;
  memset(&q, 0, sizeof q);
  q.p = p;
  q.window = nt > 1 ? 8 * nt + 8 : 1; /* room for a slow tile at the head of the order */
  q.hdr = calloc(q.window, sizeof *q.hdr);
  q.mem = malloc((size_t)q.window * (p->slot_size ? p->slot_size : 1));
  if (!q.hdr || !q.mem) {
    free(q.hdr);
    free(q.mem);
    return opc_nomem(err, "threads");
  }
  op_status st = OP_OK;
  pthread_t *tid = NULL;
  uint32_t started = 0;
  if (nt > 1 && (tid = malloc(nt * sizeof *tid)) != NULL &&
      pthread_mutex_init(&q.mu, NULL) == 0) {
    if (pthread_cond_init(&q.wake_workers, NULL) == 0) {
      if (pthread_cond_init(&q.wake_taker, NULL) == 0) {
        while (started < nt && pthread_create(&tid[started], NULL, worker_main, &q) == 0)
          started++;
        if (started == 0) pthread_cond_destroy(&q.wake_taker);
      }
      if (started == 0) pthread_cond_destroy(&q.wake_workers);
    }
    if (started == 0) pthread_mutex_destroy(&q.mu);
  }
  if (started == 0) { /* fewer threads change no byte (POLY-228) */
    st = run_serial(p, q.mem, err);
  } else {
    pthread_mutex_lock(&q.mu);
    while (st == OP_OK && q.next_take < p->n) {
      slot_hdr *h = &q.hdr[q.next_take % q.window];
      while (h->state != SLOT_DONE) pthread_cond_wait(&q.wake_taker, &q.mu);
      pthread_mutex_unlock(&q.mu);
      /* in index order, on the calling thread: the hooks and the mesh see serial order */
      st = p->take(p->ud, q.next_take, slot_of(&q, q.next_take), h->st, &h->err, err);
      pthread_mutex_lock(&q.mu);
      h->state = SLOT_FREE;
      q.next_take++;
      pthread_cond_broadcast(&q.wake_workers);
    }
    q.stop = 1; /* an error: no new item starts; those running finish */
    pthread_cond_broadcast(&q.wake_workers);
    pthread_mutex_unlock(&q.mu);
    for (uint32_t k = 0; k < started; k++) pthread_join(tid[k], NULL);
    for (uint64_t i = q.next_take; i < q.next_start; i++) /* made after the error */
      if (q.hdr[i % q.window].state == SLOT_DONE) p->drop(p->ud, slot_of(&q, i));
    pthread_cond_destroy(&q.wake_taker);
    pthread_cond_destroy(&q.wake_workers);
    pthread_mutex_destroy(&q.mu);
  }
  free(tid);
  free(q.hdr);
  free(q.mem);
  return st;
}
