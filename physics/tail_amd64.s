//go:build amd64 && !purego

#include "textflag.h"
#include "go_asm.h"

// tailKernel is solveDynamic (solver.go) for a run of constraints one
// after the other, for the lanes' tail (tail.go): the same operations in
// the same order, so the same bits. A vec3 sits in the low three lanes
// of a YMM register (x, y, z; the fourth lane holds whatever follows in
// memory and is never stored), so that sub, add, madd and msub are one or
// two instructions; dot products add their three products in Go's order,
// (x·x' + y·y') + z·z'. The normal sweep is scalar. Products are never
// fused with additions (there is no VFMADD here); maxf(a, b) is VMAXSD
// b, a (a > b ? a : b, as the instruction does), minf(a, b) VMINSD b, a,
// except the clamp of each point's impulse at zero, a branch on the same
// test (see IMPULSE); negation flips the sign bit (XOR), as Go's unary
// minus.
//
// Registers for the whole loop:
//
//	SI  the constraint   DI  its friction   CX  constraints left
//	R8  the bodies       R9  the points     R11 the pass's parameters
//	R10 body A           R12 body B         R13 the constraint's first point
//	DX  its point count (1 to 4)
//	Y0 vA   Y1 wA   Y2 vB   Y3 wB   Y4 n   (held from the load to the
//	store, and vA to wB on to the next constraint, which may share a body)
//
// The first sweep over the points leaves each point's speed before the
// sweep's impulses in X8-X11 (and its separation on the stack); the
// Gauss–Seidel sweep then turns each into the point's δ in the same
// register: X12 Σλ (total), X13 Σδ (sum), X7 zero.

// The sign bit in every lane: XOR with it negates.
DATA tailSign<>+0(SB)/8, $0x8000000000000000
DATA tailSign<>+8(SB)/8, $0x8000000000000000
DATA tailSign<>+16(SB)/8, $0x8000000000000000
DATA tailSign<>+24(SB)/8, $0x8000000000000000
GLOBL tailSign<>(SB), RODATA|NOPTR, $32

// HSUM adds the three low lanes of yt (xt the same register) in Go's
// order, (x + y) + z, into xd (the lanes of yt are lost).
#define HSUM(yt, xt, xd) \
	VPERMILPD $1, xt, xd; \
	VADDSD xd, xt, xd; \
	VEXTRACTF128 $1, yt, xt; \
	VADDSD xt, xd, xd

// STORE3 stores the vec3 in the low lanes of y (x the same register) at
// off(r), 24 bytes; xt is a temporary.
#define STORE3(y, x, xt, off, r) \
	VMOVUPD x, off(r); \
	VEXTRACTF128 $1, y, xt; \
	VMOVSD xt, off+16(r)

// LOAD3 loads the vec3 at off(r) into the low lanes of y (x the same
// register; the fourth lane zero), in the shape STORE3 stores it, so that
// a load soon after the store gets the stored values without waiting
// (a load that spans two stores would wait for both to reach the cache);
// xt is a temporary.
#define LOAD3(y, x, xt, off, r) \
	VMOVUPD off(r), x; \
	VMOVSD off+16(r), xt; \
	VINSERTF128 $1, xt, y, y

// SEP1 is the first sweep's point j when fresh: s = baseSep + dpn +
// dot(nB, rB) − dot(nA, rA), stored as the point's separation and at
// j*8(SP), then the point's speed before the sweep, vnLinear + dot(wB,
// rnB) − dot(wA, rnA), into xv. Y13 nA, Y14 nB, X15 dpn, X6 vnLinear.
#define SEP1(j, xv) \
	VADDSD constraintPoint_baseSep+constraintPoint__size*j(R13), X15, X5; \
	VMULPD constraintPoint_rB+constraintPoint__size*j(R13), Y14, Y7; \
	HSUM(Y7, X7, X12); \
	VADDSD X12, X5, X5; \
	VMULPD constraintPoint_rA+constraintPoint__size*j(R13), Y13, Y7; \
	HSUM(Y7, X7, X12); \
	VSUBSD X12, X5, X5; \
	VMOVSD X5, constraintPoint_sep+constraintPoint__size*j(R13); \
	VMOVSD X5, (j*8)(SP); \
	VN1(j, xv)

// SEP1STORED is SEP1 when not fresh: s is the stored separation.
#define SEP1STORED(j, xv) \
	MOVQ constraintPoint_sep+constraintPoint__size*j(R13), AX; \
	MOVQ AX, (j*8)(SP); \
	VN1(j, xv)

// VN1 is a point's speed before the sweep's impulses into xv.
#define VN1(j, xv) \
	VMULPD constraintPoint_rnB+constraintPoint__size*j(R13), Y3, Y7; \
	HSUM(Y7, X7, X12); \
	VADDSD X12, X6, xv; \
	VMULPD constraintPoint_rnA+constraintPoint__size*j(R13), Y1, Y7; \
	HSUM(Y7, X7, X12); \
	VSUBSD X12, xv, xv

// IMPULSE turns point j's speed (in X5) into its δ in xd: pointImpulse,
// accumulate (the point's λ stored), then Σλ and Σδ. accumulate's
// maxf(λ + Δλ, 0) is a branch, as the Go loop compiles it, not a VMAXSD:
// a branch the processor predicts takes the max's latency off the
// chain from one point to the next.
#define IMPULSE(j, xd, spec, bias, acc, pos) \
	VMOVSD (j*8)(SP), X14; \
	VUCOMISD X7, X14; \
	JA spec; \
	CMPQ laneParams_useBias(R11), $0; \
	JNE bias; \
	VMULSD constraintPoint_normalMass+constraintPoint__size*j(R13), X5, X5; \
	VXORPD tailSign<>(SB), X5, X5; \
	JMP acc; \
spec: \
	VMULSD laneParams_invH(R11), X14, X14; \
	VADDSD X14, X5, X5; \
	VMULSD constraintPoint_normalMass+constraintPoint__size*j(R13), X5, X5; \
	VXORPD tailSign<>(SB), X5, X5; \
	JMP acc; \
bias: \
	VMULSD contactConstraint_soft+softness_biasRate(SI), X14, X14; \
	VMAXSD laneParams_negMaxPush(R11), X14, X14; \
	VADDSD X14, X5, X5; \
	VMOVSD constraintPoint_normalMass+constraintPoint__size*j(R13), X14; \
	VMULSD contactConstraint_soft+softness_massScale(SI), X14, X14; \
	VMULSD X5, X14, X5; \
	VXORPD tailSign<>(SB), X5, X5; \
	VMOVSD contactConstraint_soft+softness_impulseScale(SI), X14; \
	VMULSD constraintPoint_normalImpulse+constraintPoint__size*j(R13), X14, X14; \
	VSUBSD X14, X5, X5; \
acc: \
	VMOVSD constraintPoint_normalImpulse+constraintPoint__size*j(R13), X14; \
	VADDSD X5, X14, X5; \
	VUCOMISD X7, X5; \
	JA pos; \
	VMOVAPD X7, X5; \
pos: \
	VMOVSD X5, constraintPoint_normalImpulse+constraintPoint__size*j(R13); \
	VADDSD X5, X12, X12; \
	VSUBSD X14, X5, xd; \
	VADDSD xd, X13, X13

// APPLY pushes point j's δ (xd) into the angular velocities:
// wA −= δ·iA, wB += δ·iB.
#define APPLY(j, xd) \
	VBROADCASTSD xd, Y5; \
	VMULPD constraintPoint_iA+constraintPoint__size*j(R13), Y5, Y6; \
	VSUBPD Y6, Y1, Y1; \
	VMULPD constraintPoint_iB+constraintPoint__size*j(R13), Y5, Y6; \
	VADDPD Y6, Y3, Y3

// func tailKernel(cons *contactConstraint, fric *patchFriction, n int, pts *constraintPoint, bodies *solverBody, p *laneParams)
TEXT ·tailKernel(SB), NOSPLIT, $32-48
	MOVQ cons+0(FP), SI
	MOVQ fric+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ pts+24(FP), R9
	MOVQ bodies+32(FP), R8
	MOVQ p+40(FP), R11
	TESTQ CX, CX
	JLE done

	// No body in the registers yet (no body's address is 0).
	XORQ R10, R10
	XORQ R12, R12

next:
	// The bodies: one the last constraint held (on the player cube's
	// chain, every constraint shares it) is already in the registers,
	// the last constraint's results; the others are loaded. A body that
	// keeps its role keeps its registers; one that changes role is moved
	// from the copies in Y5-Y8 (the registers of the last A and B).
	MOVLQSX contactConstraint_a(SI), AX
	IMULQ $solverBody__size, AX
	ADDQ R8, AX
	MOVLQSX contactConstraint_b(SI), BX
	IMULQ $solverBody__size, BX
	ADDQ R8, BX
	VMOVAPD Y0, Y5
	VMOVAPD Y1, Y6
	VMOVAPD Y2, Y7
	VMOVAPD Y3, Y8
	CMPQ AX, R10
	JEQ aDone
	CMPQ AX, R12
	JEQ aWasB
	LOAD3(Y0, X0, X9, solverBody_v, AX)
	LOAD3(Y1, X1, X9, solverBody_w, AX)
	JMP aDone

aWasB:
	VMOVAPD Y7, Y0
	VMOVAPD Y8, Y1

aDone:
	CMPQ BX, R12
	JEQ bDone
	CMPQ BX, R10
	JEQ bWasA
	LOAD3(Y2, X2, X9, solverBody_v, BX)
	LOAD3(Y3, X3, X9, solverBody_w, BX)
	JMP bDone

bWasA:
	VMOVAPD Y5, Y2
	VMOVAPD Y6, Y3

bDone:
	MOVQ AX, R10
	MOVQ BX, R12
	MOVLQSX contactConstraint_first(SI), R13
	IMULQ $constraintPoint__size, R13
	ADDQ R9, R13
	MOVLQSX contactConstraint_count(SI), DX
	VMOVUPD contactConstraint_normal(SI), Y4

	// vnLinear = dot(n, sub(vB, vA)) into X6.
	VSUBPD Y0, Y2, Y5
	VMULPD Y5, Y4, Y5
	HSUM(Y5, X5, X6)

	CMPQ laneParams_fresh(R11), $0
	JEQ stored

	// Fresh: dpn = dot(sub(B.dp, A.dp), n) into X15; nA = ΔR_Aᵀn into
	// Y13 and nB into Y14 (each lane a dot of a column of ΔR with n).
	VMOVUPD solverBody_dp(R12), Y5
	VSUBPD solverBody_dp(R10), Y5, Y5
	VMULPD Y4, Y5, Y5
	HSUM(Y5, X5, X15)
	VMULPD solverBody_dR+0(R10), Y4, Y5
	HSUM(Y5, X5, X13)
	VMULPD solverBody_dR+24(R10), Y4, Y5
	HSUM(Y5, X5, X14)
	VUNPCKLPD X14, X13, X13
	VMULPD solverBody_dR+48(R10), Y4, Y5
	HSUM(Y5, X5, X14)
	VINSERTF128 $1, X14, Y13, Y13
	VMULPD solverBody_dR+0(R12), Y4, Y5
	HSUM(Y5, X5, X14)
	VMULPD solverBody_dR+24(R12), Y4, Y5
	HSUM(Y5, X5, X8)
	VUNPCKLPD X8, X14, X14
	VMULPD solverBody_dR+48(R12), Y4, Y5
	HSUM(Y5, X5, X8)
	VINSERTF128 $1, X8, Y14, Y14

	SEP1(0, X8)
	CMPQ DX, $1
	JEQ sweep
	SEP1(1, X9)
	CMPQ DX, $2
	JEQ sweep
	SEP1(2, X10)
	CMPQ DX, $3
	JEQ sweep
	SEP1(3, X11)
	JMP sweep

stored:
	SEP1STORED(0, X8)
	CMPQ DX, $1
	JEQ sweep
	SEP1STORED(1, X9)
	CMPQ DX, $2
	JEQ sweep
	SEP1STORED(2, X10)
	CMPQ DX, $3
	JEQ sweep
	SEP1STORED(3, X11)

sweep:
	// The Gauss–Seidel sweep: vn = (speed before) + coupled (Σ_{i<j}
	// k[i]·δ_i, and +0 for the first point, as the Go loop adds it).
	VXORPD X7, X7, X7
	VXORPD X12, X12, X12
	VXORPD X13, X13, X13
	VADDSD X7, X8, X5
	IMPULSE(0, X8, spec0, bias0, acc0, pos0)
	CMPQ DX, $1
	JEQ swept
	VMULSD constraintPoint_k+constraintPoint__size*1(R13), X8, X6
	VADDSD X6, X9, X5
	IMPULSE(1, X9, spec1, bias1, acc1, pos1)
	CMPQ DX, $2
	JEQ swept
	VMULSD constraintPoint_k+constraintPoint__size*2(R13), X8, X6
	VMULSD constraintPoint_k+8+constraintPoint__size*2(R13), X9, X14
	VADDSD X14, X6, X6
	VADDSD X6, X10, X5
	IMPULSE(2, X10, spec2, bias2, acc2, pos2)
	CMPQ DX, $3
	JEQ swept
	VMULSD constraintPoint_k+constraintPoint__size*3(R13), X8, X6
	VMULSD constraintPoint_k+8+constraintPoint__size*3(R13), X9, X14
	VADDSD X14, X6, X6
	VMULSD constraintPoint_k+16+constraintPoint__size*3(R13), X10, X14
	VADDSD X14, X6, X6
	VADDSD X6, X11, X5
	IMPULSE(3, X11, spec3, bias3, acc3, pos3)

swept:
	// Idle: total == 0 && sum == 0 && (useBias || friction idle).
	VUCOMISD X7, X12
	JNE active
	JPS active
	VUCOMISD X7, X13
	JNE active
	JPS active
	CMPQ laneParams_useBias(R11), $0
	JNE skip
	VUCOMISD patchFriction_friction(DI), X7
	JNE active
	JPS active
	VUCOMISD patchFriction_friction+8(DI), X7
	JNE active
	JPS active
	VUCOMISD patchFriction_twist(DI), X7
	JNE active
	JPS active
	JMP skip

active:
	APPLY(0, X8)
	CMPQ DX, $1
	JEQ applied
	APPLY(1, X9)
	CMPQ DX, $2
	JEQ applied
	APPLY(2, X10)
	CMPQ DX, $3
	JEQ applied
	APPLY(3, X11)

applied:
	// vA = msub(vA, mA·sum, n), vB = madd(vB, mB·sum, n).
	VMULSD contactConstraint_mA(SI), X13, X5
	VBROADCASTSD X5, Y5
	VMULPD Y4, Y5, Y5
	VSUBPD Y5, Y0, Y0
	VMULSD contactConstraint_mB(SI), X13, X5
	VBROADCASTSD X5, Y5
	VMULPD Y4, Y5, Y5
	VADDPD Y5, Y2, Y2

	CMPQ laneParams_useBias(R11), $0
	JNE store
	CMPQ laneParams_friction(R11), $0
	JEQ nofriction

	// Friction. X15 maxF = mu·total.
	VMULSD laneParams_mu(R11), X12, X15
	// v1 = dot(dv, t1) + dot(wB, ctB0) − dot(wA, ctA0) into X8, v2 into
	// X9 (dv = vB − vA in Y10).
	VSUBPD Y0, Y2, Y10
	VMULPD patchFriction_t1(DI), Y10, Y5
	HSUM(Y5, X5, X8)
	VMULPD patchFriction_ctB(DI), Y3, Y5
	HSUM(Y5, X5, X11)
	VADDSD X11, X8, X8
	VMULPD patchFriction_ctA(DI), Y1, Y5
	HSUM(Y5, X5, X11)
	VSUBSD X11, X8, X8
	VMULPD patchFriction_t2(DI), Y10, Y5
	HSUM(Y5, X5, X9)
	VMULPD patchFriction_ctB+24(DI), Y3, Y5
	HSUM(Y5, X5, X11)
	VADDSD X11, X9, X9
	VMULPD patchFriction_ctA+24(DI), Y1, Y5
	HSUM(Y5, X5, X11)
	VSUBSD X11, X9, X9
	// tangentTarget: l1 = f0 − (tk11·v1 + tk12·v2) into X10, l2 = f1 −
	// (tk12·v1 + tk22·v2) into X11.
	VMULSD patchFriction_tk11(DI), X8, X5
	VMULSD patchFriction_tk12(DI), X9, X6
	VADDSD X6, X5, X5
	VMOVSD patchFriction_friction(DI), X10
	VSUBSD X5, X10, X10
	VMULSD patchFriction_tk12(DI), X8, X5
	VMULSD patchFriction_tk22(DI), X9, X6
	VADDSD X6, X5, X5
	VMOVSD patchFriction_friction+8(DI), X11
	VSUBSD X5, X11, X11
	// setTangent: the cone's clamp when l1² + l2² > maxF².
	VMULSD X10, X10, X5
	VMULSD X11, X11, X6
	VADDSD X6, X5, X5
	VMULSD X15, X15, X6
	VUCOMISD X6, X5
	JBE inside
	VSQRTSD X5, X5, X5
	VDIVSD X5, X15, X5
	VMULSD X5, X10, X10
	VMULSD X5, X11, X11

inside:
	// d1 into X8, d2 into X9; the new friction stored.
	VSUBSD patchFriction_friction(DI), X10, X8
	VSUBSD patchFriction_friction+8(DI), X11, X9
	VMOVSD X10, patchFriction_friction(DI)
	VMOVSD X11, patchFriction_friction+8(DI)
	// twistImpulse: vt = dot(sub(wB, wA), n); maxT = maxF·lever; lt =
	// maxf(−maxT, minf(maxT, twist − twistMass·vt)); dt into X10.
	VSUBPD Y1, Y3, Y5
	VMULPD Y4, Y5, Y5
	HSUM(Y5, X5, X6)
	VMULSD patchFriction_twistLever(DI), X15, X11
	VMULSD patchFriction_twistMass(DI), X6, X6
	VMOVSD patchFriction_twist(DI), X5
	VSUBSD X6, X5, X6
	VMINSD X6, X11, X6
	VXORPD tailSign<>(SB), X11, X11
	VMAXSD X6, X11, X6
	VSUBSD X5, X6, X10
	VMOVSD X6, patchFriction_twist(DI)
	// p = madd(scale(t1, d1), d2, t2) into Y5; vA −= mA·p, vB += mB·p.
	VBROADCASTSD X8, Y8
	VBROADCASTSD X9, Y9
	VBROADCASTSD X10, Y10
	VMULPD patchFriction_t1(DI), Y8, Y5
	VMULPD patchFriction_t2(DI), Y9, Y6
	VADDPD Y6, Y5, Y5
	VBROADCASTSD contactConstraint_mA(SI), Y6
	VMULPD Y5, Y6, Y6
	VSUBPD Y6, Y0, Y0
	VBROADCASTSD contactConstraint_mB(SI), Y6
	VMULPD Y5, Y6, Y6
	VADDPD Y6, Y2, Y2
	// wA −= itA0·d1 + d2·itA1 + dt·inA; wB += the same with B's.
	VMULPD patchFriction_itA(DI), Y8, Y5
	VMULPD patchFriction_itA+24(DI), Y9, Y6
	VADDPD Y6, Y5, Y5
	VMULPD patchFriction_inA(DI), Y10, Y6
	VADDPD Y6, Y5, Y5
	VSUBPD Y5, Y1, Y1
	VMULPD patchFriction_itB(DI), Y8, Y5
	VMULPD patchFriction_itB+24(DI), Y9, Y6
	VADDPD Y6, Y5, Y5
	VMULPD patchFriction_inB(DI), Y10, Y6
	VADDPD Y6, Y5, Y5
	VADDPD Y5, Y3, Y3

nofriction:
	CMPQ laneParams_warm(R11), $0
	JNE warm
	// The last substep: the totals only.
	MOVQ R13, AX
	MOVQ DX, BX

totals:
	VMOVSD constraintPoint_totalNormalImpulse(AX), X5
	VADDSD constraintPoint_normalImpulse(AX), X5, X5
	VMOVSD X5, constraintPoint_totalNormalImpulse(AX)
	ADDQ $constraintPoint__size, AX
	DECQ BX
	JNZ totals
	JMP store

warm:
	// The totals and the next warm start: lA = Σ λ·rnA (from +0) in Y8,
	// lB in Y9.
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	MOVQ R13, AX
	MOVQ DX, BX

sums:
	VMOVSD constraintPoint_normalImpulse(AX), X5
	VADDSD constraintPoint_totalNormalImpulse(AX), X5, X6
	VMOVSD X6, constraintPoint_totalNormalImpulse(AX)
	VBROADCASTSD X5, Y5
	VMULPD constraintPoint_rnA(AX), Y5, Y6
	VADDPD Y6, Y8, Y8
	VMULPD constraintPoint_rnB(AX), Y5, Y6
	VADDPD Y6, Y9, Y9
	ADDQ $constraintPoint__size, AX
	DECQ BX
	JNZ sums

	// lin = madd(madd(scale(n, total), f1, t1), f2, t2) into Y5.
	VBROADCASTSD X12, Y5
	VMULPD Y4, Y5, Y5
	VBROADCASTSD patchFriction_friction(DI), Y10
	VBROADCASTSD patchFriction_friction+8(DI), Y11
	VBROADCASTSD patchFriction_twist(DI), Y12
	VMULPD patchFriction_t1(DI), Y10, Y6
	VADDPD Y6, Y5, Y5
	VMULPD patchFriction_t2(DI), Y11, Y6
	VADDPD Y6, Y5, Y5
	// A's: warmP −= lin; warmL −= ((lA + f1·ctA0) + f2·ctA1) + twist·n.
	VMULPD patchFriction_ctA(DI), Y10, Y6
	VADDPD Y6, Y8, Y8
	VMULPD patchFriction_ctA+24(DI), Y11, Y6
	VADDPD Y6, Y8, Y8
	VMULPD Y4, Y12, Y6
	VADDPD Y6, Y8, Y8
	LOAD3(Y6, X6, X14, solverBody_warmP, R10)
	VSUBPD Y5, Y6, Y6
	LOAD3(Y13, X13, X14, solverBody_warmL, R10)
	VSUBPD Y8, Y13, Y13
	STORE3(Y6, X6, X14, solverBody_warmP, R10)
	STORE3(Y13, X13, X14, solverBody_warmL, R10)
	// B's: warmP += lin; warmL += ((lB + f1·ctB0) + f2·ctB1) + twist·n.
	VMULPD patchFriction_ctB(DI), Y10, Y6
	VADDPD Y6, Y9, Y9
	VMULPD patchFriction_ctB+24(DI), Y11, Y6
	VADDPD Y6, Y9, Y9
	VMULPD Y4, Y12, Y6
	VADDPD Y6, Y9, Y9
	LOAD3(Y6, X6, X14, solverBody_warmP, R12)
	VADDPD Y5, Y6, Y6
	LOAD3(Y13, X13, X14, solverBody_warmL, R12)
	VADDPD Y9, Y13, Y13
	STORE3(Y6, X6, X14, solverBody_warmP, R12)
	STORE3(Y13, X13, X14, solverBody_warmL, R12)

store:
	// A.v, A.w = vA, wA; B.v, B.w = vB, wB. (They stay in the
	// registers too, for the next constraint.)
	STORE3(Y0, X0, X5, solverBody_v, R10)
	STORE3(Y1, X1, X5, solverBody_w, R10)
	STORE3(Y2, X2, X5, solverBody_v, R12)
	STORE3(Y3, X3, X5, solverBody_w, R12)

skip:
	ADDQ $contactConstraint__size, SI
	ADDQ $patchFriction__size, DI
	DECQ CX
	JNZ next

done:
	VZEROUPPER
	RET
