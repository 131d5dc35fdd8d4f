// odebench: the netcubes katamari gather phase on ODE, the engine the
// original "Networked Physics" demo ran on, for cmd/bench -physics.
//
// It is not part of the shipped program, of `go build ./...` or of
// `make test`: it needs a C++ compiler and libode-dev (Debian/Ubuntu:
// apt-get install libode-dev g++). Build with `make -C tools/odebench`.
//
// The scene and the presenter are the netcubes ones, written again here:
// 900 cubes of 0.4 m on a 30 x 30 grid at 1 m spacing, resting (disabled)
// on the ground plane, the 1.5 m player dropped from 10 m above the centre,
// density 1, gravity 20 m/s²; the player's forces (push, roll, wobble,
// upright) and the katamari pull as cubes/world.go applies them; and the
// steering controller of cubes/presenter.go (cubes.Spiral). ODE's settings
// are the original demo's: QuickStep with 64 iterations, ERP 0.25, CFM
// 0.001, friction 100, no bounce, up to 8 contacts per pair, a hash space,
// damping 0.01, speeds clamped at 32 m/s and 16 rad/s, and a body disabled
// once it has been slower than 0.25 m/s (and 0.25 rad/s) for 0.1 s.
//
// A pair of geoms none of whose bodies is enabled is skipped before the
// narrowphase: contacts between sleeping cubes would be thrown away by the
// solver anyway, and testing them would only make ODE look slower.
//
// Its first argument is the presenter's reaction time in ticks (8 if none).
// A second argument names a file to which the run is written in the 2015
// snapshot compression challenge's layout (snapshot/challenge.go): the
// initial frame and every tick's, each cube quantized as netcubes does
// (positions at 512 per metre, smallest three at 9 bits), interacting when
// its body is enabled; `go run ./cmd/bench -challenge FILE` codes it.
// Output (the protocol of cmd/bench/physics.go): an "engine" line, the time
// in ms (the thread's CPU time) of every step of the gather phase on one "ms" line, and the ball
// size (cubes within 2.5 m of the player's centre) on a "ball" line. Each
// timed step is what a netcubes tick does: forces, collision, the solver
// step, and the rest rule.

#include <ode/ode.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace {

// The netcubes world (cubes.DefaultConfig).
const double kCubeSize = 0.4, kPlayerSize = 1.5, kSpacing = 1;
const int kGridSide = 30;
const double kGravity = 20;
const double kMoveAccel = 26, kTopSpeed = 4, kRollAccel = 12;
const double kWobbleAccel = 6;
const int kWobblePeriod = 40;
const double kUprightAccel = 4;
const double kPullMin = 0.2, kPullMax = 1.8, kPullStrength = 200, kPullCap = 2000;
const double kMaxLinear = 32, kMaxAngular = 16;
const double kDt = 1.0 / 60;

// The original demo's ODE settings.
const int kIterations = 64;
const double kERP = 0.25, kCFM = 0.001, kMu = 100;
const double kSurfaceLayer = 0.001, kMaxCorrectingVel = 100;
const double kDamping = 0.01;
const int kMaxContacts = 8;
const double kRestSpeed = 0.25, kRestTime = 0.1;

// The presenter (cubes.DefaultSpiral).
const int kDrop = 60, kGather = 1080, kHold = 60;
int every = 8;  // ticks between the presenter's decisions: the argument
const double kR0 = 2, kR1 = 10, kLaps = 2;

struct Cube {
  dBodyID body;
  dGeomID geom;
  double timeAtRest;
};

struct Sim {
  dWorldID world;
  dSpaceID space;
  dJointGroupID contacts;
  std::vector<Cube> cubes;  // cubes[0] is the player
  dContact contact[kMaxContacts];
};

void nearCallback(void *data, dGeomID o1, dGeomID o2) {
  Sim *s = static_cast<Sim *>(data);
  dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
  bool e1 = b1 && dBodyIsEnabled(b1), e2 = b2 && dBodyIsEnabled(b2);
  if (!e1 && !e2) return;
  int n = dCollide(o1, o2, kMaxContacts, &s->contact[0].geom, sizeof(dContact));
  for (int i = 0; i < n; i++) {
    dJointID c = dJointCreateContact(s->world, s->contacts, &s->contact[i]);
    dJointAttach(c, b1, b2);
  }
}

void addCube(Sim &s, double size, double x, double y, double z, bool asleep) {
  Cube c;
  c.body = dBodyCreate(s.world);
  dMass m;
  dMassSetBox(&m, 1, size, size, size);
  dBodySetMass(c.body, &m);
  c.geom = dCreateBox(s.space, size, size, size);
  dGeomSetBody(c.geom, c.body);
  dBodySetPosition(c.body, x, y, z);
  c.timeAtRest = 0;
  if (asleep) {
    c.timeAtRest = kRestTime;
    dBodyDisable(c.body);
  }
  s.cubes.push_back(c);
}

double len3(const dReal *v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

void clamp(dBodyID b) {
  const dReal *v = dBodyGetLinearVel(b);
  double l = len3(v);
  if (l > kMaxLinear) dBodySetLinearVel(b, v[0] * kMaxLinear / l, v[1] * kMaxLinear / l, v[2] * kMaxLinear / l);
  const dReal *w = dBodyGetAngularVel(b);
  l = len3(w);
  if (l > kMaxAngular) dBodySetAngularVel(b, w[0] * kMaxAngular / l, w[1] * kMaxAngular / l, w[2] * kMaxAngular / l);
}

void force(dBodyID b, double fx, double fy, double fz) {
  dBodyEnable(b);
  dBodyAddForce(b, fx, fy, fz);
}

void torque(dBodyID b, double tx, double ty, double tz) {
  dBodyEnable(b);
  dBodyAddTorque(b, tx, ty, tz);
}

struct Keys {
  bool left = false, right = false, up = false, down = false, katamari = false;
};

// cubes.World.applyPlayerForces.
void playerForces(Sim &s, const Keys &k, int frame) {
  double dx = (k.right ? 1 : 0) - (k.left ? 1 : 0), dy = (k.up ? 1 : 0) - (k.down ? 1 : 0);
  if (dx == 0 && dy == 0) return;
  double l = std::sqrt(dx * dx + dy * dy);
  dx /= l;
  dy /= l;
  dBodyID p = s.cubes[0].body;
  dMass m;
  dBodyGetMass(p, &m);
  double mass = m.mass, h = kPlayerSize / 2;
  const dReal *v = dBodyGetLinearVel(p);
  double f = kMoveAccel * mass;
  double along = dx * v[0] + dy * v[1];
  if (along < 0) {
    f *= 2;
  } else {
    f *= std::max(0.0, 1 - along / kTopSpeed);
  }
  force(p, dx * f, dy * f, 0);
  // Roll about z × dir.
  torque(p, -dy * kRollAccel * mass * h, dx * kRollAccel * mass * h, 0);
  int ph = frame % kWobblePeriod, half = kWobblePeriod / 2;
  double tri = double(std::min(ph, kWobblePeriod - ph)) / half * 2 - 1;
  force(p, -dy * tri * kWobbleAccel * mass, dx * tri * kWobbleAccel * mass, 0);
  // Upright: the most upward body axis toward +z.
  const dReal *R = dBodyGetRotation(p);
  double best[3] = {0, 0, 0}, bestZ = -2;
  for (int a = 0; a < 3; a++) {
    double n[3] = {R[0 * 4 + a], R[1 * 4 + a], R[2 * 4 + a]};
    if (n[2] < 0) n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
    if (n[2] > bestZ) best[0] = n[0], best[1] = n[1], best[2] = n[2], bestZ = n[2];
  }
  double t = kUprightAccel * mass * h;
  torque(p, best[1] * t, -best[0] * t, 0);  // up × ẑ
}

// cubes.World.applyKatamari.
void katamari(Sim &s) {
  const dReal *c = dBodyGetPosition(s.cubes[0].body);
  for (size_t i = 1; i < s.cubes.size(); i++) {
    const dReal *p = dBodyGetPosition(s.cubes[i].body);
    double d[3] = {c[0] - p[0], c[1] - p[1], c[2] - p[2]};
    double dist = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (dist < kPullMin || dist > kPullMax) continue;
    double a = std::min(kPullStrength / (dist * dist), kPullCap);
    dMass m;
    dBodyGetMass(s.cubes[i].body, &m);
    double k = a * m.mass / dist;
    force(s.cubes[i].body, d[0] * k, d[1] * k, d[2] * k);
  }
}

// The original demo's rest rule: disable a body slow for kRestTime.
void rest(Sim &s) {
  for (Cube &c : s.cubes) {
    if (!dBodyIsEnabled(c.body)) continue;
    clamp(c.body);
    if (len3(dBodyGetLinearVel(c.body)) < kRestSpeed && len3(dBodyGetAngularVel(c.body)) < kRestSpeed) {
      c.timeAtRest += kDt;
    } else {
      c.timeAtRest = 0;
    }
    if (c.timeAtRest >= kRestTime) dBodyDisable(c.body);
  }
}

// cubes.Spiral.Input.
Keys presenter(int f, const dReal *player, Keys &cur) {
  int g = f - kDrop;
  if (g < 0 || f >= kDrop + kGather + kHold) return Keys();
  if (g >= kGather) {
    Keys k;
    k.katamari = true;
    return k;
  }
  if (g % every == 0) {
    double u = double(g) / kGather;
    double ang = u * kLaps * 2 * M_PI;
    double r = kR0 + (kR1 - kR0) * u;
    double tx = r * std::sin(ang), ty = -r * std::cos(ang);
    double dx = tx - player[0], dy = ty - player[1];
    cur = Keys();
    cur.katamari = true;
    if (std::sqrt(dx * dx + dy * dy) > 0.3) {
      int oct = (int(std::round(std::atan2(dy, dx) / (M_PI / 4))) + 8) % 8;
      static const int ox[8] = {1, 1, 0, -1, -1, -1, 0, 1};
      static const int oy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
      cur.right = ox[oct] > 0;
      cur.left = ox[oct] < 0;
      cur.up = oy[oct] > 0;
      cur.down = oy[oct] < 0;
    }
  }
  return cur;
}

// threadMs is the thread's CPU time in ms: on a machine shared with other
// work, a step's wall time includes the time spent waiting for a core
// (cmd/bench times netcubes the same way).
double threadMs();

// quantize is wire.QuantizeScalar: round half up, clamp to lo..hi.
int32_t quantize(double x, double perUnit, int32_t lo, int32_t hi) {
  double f = std::floor(x * perUnit + 0.5);
  if (f <= lo) return lo;
  if (f >= hi) return hi;
  return int32_t(f);
}

// writeFrame appends one frame in the challenge layout: per cube eight
// little-endian int32 (largest, a, b, c stored + 255, x, y, z, interacting),
// the smallest three as wire.QuantizeQuat computes them.
void writeFrame(FILE *out, const Sim &s) {
  const double kPerMetre = 512, kBound = std::sqrt(2.0) / 2;
  const int32_t kMax = 255;
  for (const Cube &c : s.cubes) {
    const dReal *p = dBodyGetPosition(c.body);
    const dReal *q = dBodyGetQuaternion(c.body);  // w, x, y, z
    double v[4] = {q[1], q[2], q[3], q[0]};       // netcubes' order: x, y, z, w
    double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    int largest = 0;
    for (int i = 0; i < 4; i++) {
      v[i] /= n;
      if (std::fabs(v[i]) > std::fabs(v[largest])) largest = i;
    }
    if (v[largest] < 0)
      for (double &x : v) x = -x;
    int32_t rec[8];
    rec[0] = largest;
    for (int i = 0, j = 1; i < 4; i++)
      if (i != largest) rec[j++] = quantize(v[i], kMax / kBound, -kMax, kMax) + kMax;
    rec[4] = quantize(p[0], kPerMetre, -256 * 512, 256 * 512 - 1);
    rec[5] = quantize(p[1], kPerMetre, -256 * 512, 256 * 512 - 1);
    rec[6] = quantize(p[2], kPerMetre, 0, 32 * 512 - 1);
    rec[7] = dBodyIsEnabled(c.body) ? 1 : 0;
    unsigned char b[32];
    for (int k = 0; k < 8; k++)
      for (int i = 0; i < 4; i++) b[4 * k + i] = (uint32_t(rec[k]) >> (8 * i)) & 0xff;
    std::fwrite(b, 1, sizeof b, out);
  }
}

double threadMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc > 1) every = std::max(1, std::atoi(argv[1]));
  FILE *out = nullptr;
  if (argc > 2 && !(out = std::fopen(argv[2], "wb"))) {
    std::perror(argv[2]);
    return 1;
  }
  dInitODE2(0);
  Sim s;
  s.world = dWorldCreate();
  s.space = dHashSpaceCreate(0);
  s.contacts = dJointGroupCreate(0);
  dWorldSetERP(s.world, kERP);
  dWorldSetCFM(s.world, kCFM);
  dWorldSetQuickStepNumIterations(s.world, kIterations);
  dWorldSetGravity(s.world, 0, 0, -kGravity);
  dWorldSetContactSurfaceLayer(s.world, kSurfaceLayer);
  dWorldSetContactMaxCorrectingVel(s.world, kMaxCorrectingVel);
  dWorldSetLinearDamping(s.world, kDamping);
  dWorldSetAngularDamping(s.world, kDamping);
  for (dContact &c : s.contact) {
    c = dContact();
    c.surface.mode = dContactBounce;
    c.surface.mu = kMu;
    c.surface.bounce = 0;
    c.surface.bounce_vel = 0.001;
  }
  dCreatePlane(s.space, 0, 0, 1, 0);
  addCube(s, kPlayerSize, 0, 0, 10, false);
  double off = -double(kGridSide - 1) / 2 * kSpacing;
  for (int j = 0; j < kGridSide; j++)
    for (int i = 0; i < kGridSide; i++)
      addCube(s, kCubeSize, off + i * kSpacing, off + j * kSpacing, kCubeSize / 2, true);

  std::vector<double> times;
  Keys cur;
  if (out) writeFrame(out, s);
  for (int f = 0; f < kDrop + kGather + kHold; f++) {
    Keys k = presenter(f, dBodyGetPosition(s.cubes[0].body), cur);
    double t0 = threadMs();
    playerForces(s, k, f);
    if (k.katamari) katamari(s);
    dSpaceCollide(s.space, &s, nearCallback);
    dWorldQuickStep(s.world, kDt);
    dJointGroupEmpty(s.contacts);
    rest(s);
    double t1 = threadMs();
    if (f >= kDrop) times.push_back(t1 - t0);
    if (out) writeFrame(out, s);
  }
  if (out && std::fclose(out) != 0) {
    std::perror(argv[2]);
    return 1;
  }
  const dReal *c = dBodyGetPosition(s.cubes[0].body);
  int ball = 0;
  for (size_t i = 1; i < s.cubes.size(); i++) {
    const dReal *p = dBodyGetPosition(s.cubes[i].body);
    double d[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    if (std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) < 2.5) ball++;
  }
  std::printf("engine ODE %s QuickStep (%d iterations, ERP %g, CFM %g, mu %g, %d contacts per pair, hash space)\n",
              dCheckConfiguration("ODE_double_precision") ? "double" : "single", kIterations, kERP, kCFM, kMu,
              kMaxContacts);
  std::printf("ms");
  for (double t : times) std::printf(" %.4f", t);
  std::printf("\nball %d\n", ball);
  dCloseODE();
  return 0;
}
