//go:build amd64 && !purego

#include "textflag.h"
#include "go_asm.h"

// laneKernel is solveDynamic (solver.go) for four constraints at a time,
// one in each float64 lane of the YMM registers (AVX), on the lane layout
// of lanes.go: the same operations in the same order in every lane, so
// the same bits. Products are never fused with additions (there is no
// VFMADD here), maxf(a, b) is VMAXPD b, a (a > b ? a : b, as the
// instruction does), minf(a, b) is VMINPD b, a.
//
// Registers for the whole loop:
//
//	SI  the lane group          DI  the end of the groups
//	R8  the solver's bodies     R9  the scratch (laneScratch)
//	R11 the pass's parameters   R14 the scratch's dummy body
//	R10, R12, R13, BX  the bodies of lanes 0-3 (A's, then B's)
//	AX, R15  the active lanes' bits     CX, DX  the relax loops' point
//
// A group goes through the phases of solveDynamic: load the bodies
// (transposed from the body array into lanes), the first sweep over the
// points (each point's separation and speed before the sweep's impulses,
// nothing carried from point to point), the second sweep (the
// Gauss–Seidel chain: δ_j in Y0-Y3, Σδ in Y11, Σλ in Y12, zero in Y10),
// the idle test, apply, friction and the warm-start sums (relax), and the
// store back into the body array (the idle lanes' stores go to a dummy
// body). The points' loops are unrolled and leave at the group's largest
// point count. The other vectors wait in the scratch between the phases.

// PTRS loads the bodies of the group's lanes (field a or b).
#define PTRS(f) \
	MOVQ f+0(SI), R10; \
	ADDQ R8, R10; \
	MOVQ f+8(SI), R12; \
	ADDQ R8, R12; \
	MOVQ f+16(SI), R13; \
	ADDQ R8, R13; \
	MOVQ f+24(SI), BX; \
	ADDQ R8, BX

// IDLE points the idle lanes' bodies (bits of AX clear) at the dummy.
#define IDLE \
	TESTL $1, AX; \
	CMOVQEQ R14, R10; \
	TESTL $2, AX; \
	CMOVQEQ R14, R12; \
	TESTL $4, AX; \
	CMOVQEQ R14, R13; \
	TESTL $8, AX; \
	CMOVQEQ R14, BX

// TRANS4 loads four doubles at off of each lane's body and transposes
// them: Y0 to Y3 hold the first to the fourth double, one lane a body.
#define TRANS4(off) \
	VMOVUPD off(R10), Y0; \
	VMOVUPD off(R12), Y1; \
	VMOVUPD off(R13), Y2; \
	VMOVUPD off(BX), Y3; \
	VUNPCKLPD Y1, Y0, Y4; \
	VUNPCKHPD Y1, Y0, Y5; \
	VUNPCKLPD Y3, Y2, Y6; \
	VUNPCKHPD Y3, Y2, Y7; \
	VPERM2F128 $0x20, Y6, Y4, Y0; \
	VPERM2F128 $0x20, Y7, Y5, Y1; \
	VPERM2F128 $0x31, Y6, Y4, Y2; \
	VPERM2F128 $0x31, Y7, Y5, Y3

// UNTRANS4 is TRANS4 backwards: it stores Y0 to Y3 (four fields, one lane
// a body) as four doubles at off of each lane's body.
#define UNTRANS4(off) \
	VUNPCKLPD Y1, Y0, Y4; \
	VUNPCKHPD Y1, Y0, Y5; \
	VUNPCKLPD Y3, Y2, Y6; \
	VUNPCKHPD Y3, Y2, Y7; \
	VPERM2F128 $0x20, Y6, Y4, Y0; \
	VPERM2F128 $0x20, Y7, Y5, Y1; \
	VPERM2F128 $0x31, Y6, Y4, Y2; \
	VPERM2F128 $0x31, Y7, Y5, Y3; \
	VMOVUPD Y0, off(R10); \
	VMOVUPD Y1, off(R12); \
	VMOVUPD Y2, off(R13); \
	VMOVUPD Y3, off(BX)

// TRANS2 loads two doubles at off of each lane's body into Y0 and Y1.
#define TRANS2(off) \
	VMOVUPD off(R10), X4; \
	VINSERTF128 $1, off(R13), Y4, Y4; \
	VMOVUPD off(R12), X5; \
	VINSERTF128 $1, off(BX), Y5, Y5; \
	VUNPCKLPD Y5, Y4, Y0; \
	VUNPCKHPD Y5, Y4, Y1

// UNTRANS2 stores Y0 and Y1 as two doubles at off of each lane's body.
#define UNTRANS2(off) \
	VUNPCKLPD Y1, Y0, Y4; \
	VUNPCKHPD Y1, Y0, Y5; \
	VMOVUPD X4, off(R10); \
	VEXTRACTF128 $1, Y4, off(R13); \
	VMOVUPD X5, off(R12); \
	VEXTRACTF128 $1, Y5, off(BX)

// LOAD6 loads two vec3s of the lanes' bodies at off (v and w, or warmP
// and warmL) into the scratch's dst[0..2] and dst2[0..2].
#define LOAD6(off, dst, dst2) \
	TRANS4(off); \
	VMOVUPD Y0, dst+0(R9); \
	VMOVUPD Y1, dst+32(R9); \
	VMOVUPD Y2, dst+64(R9); \
	VMOVUPD Y3, dst2+0(R9); \
	TRANS2(off+32); \
	VMOVUPD Y0, dst2+32(R9); \
	VMOVUPD Y1, dst2+64(R9)

// STORE6 is LOAD6 backwards.
#define STORE6(off, src, src2) \
	VMOVUPD src+0(R9), Y0; \
	VMOVUPD src+32(R9), Y1; \
	VMOVUPD src+64(R9), Y2; \
	VMOVUPD src2+0(R9), Y3; \
	UNTRANS4(off); \
	VMOVUPD src2+32(R9), Y0; \
	VMOVUPD src2+64(R9), Y1; \
	UNTRANS2(off+32)

// LOAD12 loads v, w, warmP and warmL of the lanes' bodies (twelve
// doubles from off) into the scratch's v, w and wp (warmP then warmL).
#define LOAD12(off, v, w, wp) \
	TRANS4(off); \
	VMOVUPD Y0, v+0(R9); \
	VMOVUPD Y1, v+32(R9); \
	VMOVUPD Y2, v+64(R9); \
	VMOVUPD Y3, w+0(R9); \
	TRANS4(off+32); \
	VMOVUPD Y0, w+32(R9); \
	VMOVUPD Y1, w+64(R9); \
	VMOVUPD Y2, wp+0(R9); \
	VMOVUPD Y3, wp+32(R9); \
	TRANS4(off+64); \
	VMOVUPD Y0, wp+64(R9); \
	VMOVUPD Y1, wp+96(R9); \
	VMOVUPD Y2, wp+128(R9); \
	VMOVUPD Y3, wp+160(R9)

// STORE12 is LOAD12 backwards.
#define STORE12(off, v, w, wp) \
	VMOVUPD v+0(R9), Y0; \
	VMOVUPD v+32(R9), Y1; \
	VMOVUPD v+64(R9), Y2; \
	VMOVUPD w+0(R9), Y3; \
	UNTRANS4(off); \
	VMOVUPD w+32(R9), Y0; \
	VMOVUPD w+64(R9), Y1; \
	VMOVUPD wp+0(R9), Y2; \
	VMOVUPD wp+32(R9), Y3; \
	UNTRANS4(off+32); \
	VMOVUPD wp+64(R9), Y0; \
	VMOVUPD wp+96(R9), Y1; \
	VMOVUPD wp+128(R9), Y2; \
	VMOVUPD wp+160(R9), Y3; \
	UNTRANS4(off+64)

// DOT: d = (a0·b0 + a1·b1) + a2·b2, dot's order; a and b registers or
// memory, a0 not d. Uses Y13.
#define DOT(a0, a1, a2, b0, b1, b2, d) \
	VMOVUPD a0, d; \
	VMULPD b0, d, d; \
	VMOVUPD a1, Y13; \
	VMULPD b1, Y13, Y13; \
	VADDPD Y13, d, d; \
	VMOVUPD a2, Y13; \
	VMULPD b2, Y13, Y13; \
	VADDPD Y13, d, d

// DOTN: DOT with the group's normal as b.
#define DOTN(a0, a1, a2, d) DOT(a0, a1, a2, laneGroup_n+0(SI), laneGroup_n+32(SI), laneGroup_n+64(SI), d)

// DOTV: DOT of two [3]lane4 at base offsets a and b from registers ra, rb.
#define DOTV(a, ra, b, rb, d) DOT(a+0(ra), a+32(ra), a+64(ra), b+0(rb), b+32(rb), b+64(rb), d)

// SPIN: component o of a body's spin, w op= (it0·d1 + it1·d2) + in·dt
// (op VSUBPD for A, VADDPD for B): FRIC's angular part.
#define SPIN(it0, it1, in, w, op, o) \
	VMOVUPD it0+o(SI), Y0; \
	VMULPD laneScratch_d1(R9), Y0, Y0; \
	VMOVUPD it1+o(SI), Y1; \
	VMULPD laneScratch_d2(R9), Y1, Y1; \
	VADDPD Y1, Y0, Y0; \
	VMOVUPD in+o(SI), Y1; \
	VMULPD laneScratch_dt(R9), Y1, Y1; \
	VADDPD Y1, Y0, Y0; \
	VMOVUPD w+o(R9), Y2; \
	op Y0, Y2, Y2; \
	VMOVUPD Y2, w+o(R9)

// FRIC applies the friction impulses to component o (0, 32 or 64) of the
// bodies' velocities (the relax pass, after setTangent and twistImpulse).
#define FRIC(o) \
	VMOVUPD laneGroup_t1+o(SI), Y0; \
	VMULPD laneScratch_d1(R9), Y0, Y0; \
	VMOVUPD laneGroup_t2+o(SI), Y1; \
	VMULPD laneScratch_d2(R9), Y1, Y1; \
	VADDPD Y1, Y0, Y0; \
	VMULPD laneGroup_mA(SI), Y0, Y1; \
	VMOVUPD laneScratch_vA+o(R9), Y2; \
	VSUBPD Y1, Y2, Y2; \
	VMOVUPD Y2, laneScratch_vA+o(R9); \
	VMULPD laneGroup_mB(SI), Y0, Y1; \
	VMOVUPD laneScratch_vB+o(R9), Y2; \
	VADDPD Y1, Y2, Y2; \
	VMOVUPD Y2, laneScratch_vB+o(R9); \
	SPIN(laneGroup_itA0, laneGroup_itA1, laneGroup_inA, laneScratch_wA, VSUBPD, o); \
	SPIN(laneGroup_itB0, laneGroup_itB1, laneGroup_inB, laneScratch_wB, VADDPD, o)

// SUM: acc = blend(Y7, acc + λ·r, acc), λ in Y6 (madd's order). Uses Y13.
#define SUM(acc, r) \
	VMULPD r, Y6, Y13; \
	VADDPD Y13, acc, Y13; \
	VBLENDVPD Y7, Y13, acc, acc

// LIN: component o of lin = (n·total + f1·t1) + f2·t2, into tmp+o.
#define LIN(o) \
	VMOVUPD laneGroup_n+o(SI), Y0; \
	VMULPD Y12, Y0, Y0; \
	VMOVUPD laneGroup_f1(SI), Y1; \
	VMULPD laneGroup_t1+o(SI), Y1, Y1; \
	VADDPD Y1, Y0, Y0; \
	VMOVUPD laneGroup_f2(SI), Y1; \
	VMULPD laneGroup_t2+o(SI), Y1, Y1; \
	VADDPD Y1, Y0, Y0; \
	VMOVUPD Y0, laneScratch_tmp+o(R9)

// WARM: component o of a body's warm-start sums: warmP op= lin,
// warmL op= ((l + f1·ct0) + f2·ct1) + twist·n (op VSUBPD for A, VADDPD
// for B).
#define WARM(wp, l, ct0, ct1, op, o) \
	VMOVUPD wp+o(R9), Y0; \
	op laneScratch_tmp+o(R9), Y0, Y0; \
	VMOVUPD Y0, wp+o(R9); \
	VMOVUPD laneGroup_f1(SI), Y1; \
	VMULPD ct0+o(SI), Y1, Y1; \
	VADDPD l+o(R9), Y1, Y1; \
	VMOVUPD laneGroup_f2(SI), Y2; \
	VMULPD ct1+o(SI), Y2, Y2; \
	VADDPD Y2, Y1, Y1; \
	VMOVUPD laneGroup_twist(SI), Y2; \
	VMULPD laneGroup_n+o(SI), Y2, Y2; \
	VADDPD Y2, Y1, Y1; \
	VMOVUPD wp+96+o(R9), Y0; \
	op Y1, Y0, Y0; \
	VMOVUPD Y0, wp+96+o(R9)

// ROTN: the other eight entries of the bodies' ΔR (dR follows dp, so
// TRANS4(solverBody_dp) left its first in the scratch's tmp+96) into the
// scratch, then dst = ΔRᵀn (mulMTV: the normal in each body's rotated
// frame).
#define ROTN(dst) \
	TRANS4(solverBody_dp+32); \
	VMOVUPD Y0, laneScratch_tmp+128(R9); \
	VMOVUPD Y1, laneScratch_tmp+160(R9); \
	VMOVUPD Y2, laneScratch_tmp+192(R9); \
	VMOVUPD Y3, laneScratch_tmp+224(R9); \
	TRANS4(solverBody_dp+64); \
	VMOVUPD Y0, laneScratch_tmp+256(R9); \
	VMOVUPD Y1, laneScratch_tmp+288(R9); \
	VMOVUPD Y2, laneScratch_tmp+320(R9); \
	VMOVUPD Y3, laneScratch_tmp+352(R9); \
	DOTN(laneScratch_tmp+96(R9), laneScratch_tmp+128(R9), laneScratch_tmp+160(R9), Y0); \
	VMOVUPD Y0, dst+0(R9); \
	DOTN(laneScratch_tmp+192(R9), laneScratch_tmp+224(R9), laneScratch_tmp+256(R9), Y0); \
	VMOVUPD Y0, dst+32(R9); \
	DOTN(laneScratch_tmp+288(R9), laneScratch_tmp+320(R9), laneScratch_tmp+352(R9), Y0); \
	VMOVUPD Y0, dst+64(R9)

// SEP: point j's separation, s = baseSep + dpn + nB·rB − nA·rA (nA in
// Y6 Y7 Y14, nB in Y15 Y10 Y11), stored in its sep.
#define SEP(j) \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rB(SI), Y15, Y12; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rB+32(SI), Y10, Y13; \
	VADDPD Y13, Y12, Y12; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rB+64(SI), Y11, Y13; \
	VADDPD Y13, Y12, Y12; \
	VMOVUPD laneGroup_p+lanePoint__size*j+lanePoint_baseSep(SI), Y8; \
	VADDPD laneScratch_dpn(R9), Y8, Y8; \
	VADDPD Y12, Y8, Y8; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rA(SI), Y6, Y12; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rA+32(SI), Y7, Y13; \
	VADDPD Y13, Y12, Y12; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rA+64(SI), Y14, Y13; \
	VADDPD Y13, Y12, Y12; \
	VSUBPD Y12, Y8, Y8; \
	VMOVUPD Y8, laneGroup_p+lanePoint__size*j+lanePoint_sep(SI)

// TPT: point j's normal speed before this sweep's impulses,
// t = vnLinear + wB·rnB − wA·rnA (wA in Y0-Y2, wB in Y3-Y5), into the
// scratch's t at byte offset t (32·j).
#define TPT(j, t) \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rnB(SI), Y3, Y12; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rnB+32(SI), Y4, Y13; \
	VADDPD Y13, Y12, Y12; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rnB+64(SI), Y5, Y13; \
	VADDPD Y13, Y12, Y12; \
	VADDPD laneScratch_vnLin(R9), Y12, Y12; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rnA(SI), Y0, Y9; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rnA+32(SI), Y1, Y13; \
	VADDPD Y13, Y9, Y9; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_rnA+64(SI), Y2, Y13; \
	VADDPD Y13, Y9, Y9; \
	VSUBPD Y9, Y12, Y12; \
	VMOVUPD Y12, laneScratch_t+t(R9)

// VN0 to VN3: point j's speed, vn = t + Σ_{i<j} k_i·δ_i (coupled; for
// point 0, t + 0), into Y4.
#define VN0 \
	VMOVUPD laneScratch_t+0(R9), Y4; \
	VADDPD Y10, Y4, Y4

#define VN1 \
	VMOVUPD laneScratch_t+32(R9), Y4; \
	VMULPD laneGroup_p+lanePoint__size*1+lanePoint_k(SI), Y0, Y5; \
	VADDPD Y5, Y4, Y4

#define VN2 \
	VMOVUPD laneScratch_t+64(R9), Y4; \
	VMULPD laneGroup_p+lanePoint__size*2+lanePoint_k(SI), Y0, Y5; \
	VMULPD laneGroup_p+lanePoint__size*2+lanePoint_k+32(SI), Y1, Y13; \
	VADDPD Y13, Y5, Y5; \
	VADDPD Y5, Y4, Y4

#define VN3 \
	VMOVUPD laneScratch_t+96(R9), Y4; \
	VMULPD laneGroup_p+lanePoint__size*3+lanePoint_k(SI), Y0, Y5; \
	VMULPD laneGroup_p+lanePoint__size*3+lanePoint_k+32(SI), Y1, Y13; \
	VADDPD Y13, Y5, Y5; \
	VMULPD laneGroup_p+lanePoint__size*3+lanePoint_k+64(SI), Y2, Y13; \
	VADDPD Y13, Y5, Y5; \
	VADDPD Y5, Y4, Y4

// SPEC: point j's speculative impulse (s > 0), −m·(vn + s/h), into Y7;
// s in Y6.
#define SPEC(j) \
	VMOVUPD laneGroup_p+lanePoint__size*j+lanePoint_sep(SI), Y6; \
	VMULPD Y14, Y6, Y7; \
	VADDPD Y7, Y4, Y7; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_normMass(SI), Y7, Y7; \
	VXORPD laneScratch_sign(R9), Y7, Y7

// ACC: the speculative impulse (Y7) where s > 0, else Y8; accumulated,
// λ' = max(λ + impulse, 0), δ = λ' − λ into d (0 in a lane without point
// j), Σλ in Y12, Σδ in Y11.
#define ACC(j, d) \
	VCMPPD $0x1E, Y10, Y6, Y9; \
	VBLENDVPD Y9, Y7, Y8, Y8; \
	VMOVUPD laneGroup_p+lanePoint__size*j+lanePoint_impulse(SI), Y9; \
	VADDPD Y8, Y9, Y8; \
	VMAXPD Y10, Y8, Y8; \
	VMOVUPD Y8, laneGroup_p+lanePoint__size*j+lanePoint_impulse(SI); \
	VSUBPD Y9, Y8, d; \
	VANDPD laneGroup_p+lanePoint__size*j+lanePoint_mask(SI), d, d; \
	VANDPD laneGroup_p+lanePoint__size*j+lanePoint_mask(SI), Y8, Y8; \
	VADDPD Y8, Y12, Y12; \
	VADDPD d, Y11, Y11

// SOFT: point j of the push-out sweep, soft where touching:
// −(m·massScale)·(vn + max(biasRate·s, −maxPush)) − impulseScale·λ.
#define SOFT(j, d) \
	SPEC(j); \
	VMULPD laneGroup_biasRate(SI), Y6, Y8; \
	VMAXPD Y15, Y8, Y8; \
	VADDPD Y8, Y4, Y8; \
	VMOVUPD laneGroup_p+lanePoint__size*j+lanePoint_normMass(SI), Y9; \
	VMULPD laneGroup_massSc(SI), Y9, Y9; \
	VMULPD Y9, Y8, Y8; \
	VXORPD laneScratch_sign(R9), Y8, Y8; \
	VMOVUPD laneGroup_impSc(SI), Y9; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_impulse(SI), Y9, Y9; \
	VSUBPD Y9, Y8, Y8; \
	ACC(j, d)

// RIGID: point j of the relax sweep, rigid where touching: −m·vn.
#define RIGID(j, d) \
	SPEC(j); \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_normMass(SI), Y4, Y8; \
	VXORPD laneScratch_sign(R9), Y8, Y8; \
	ACC(j, d)

// APPLY: point j's impulse change d on the spins, wA −= d·iA (Y4-Y6),
// wB += d·iB (Y7-Y9).
#define APPLY(j, d) \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_iA(SI), d, Y13; \
	VSUBPD Y13, Y4, Y4; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_iA+32(SI), d, Y13; \
	VSUBPD Y13, Y5, Y5; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_iA+64(SI), d, Y13; \
	VSUBPD Y13, Y6, Y6; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_iB(SI), d, Y13; \
	VADDPD Y13, Y7, Y7; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_iB+32(SI), d, Y13; \
	VADDPD Y13, Y8, Y8; \
	VMULPD laneGroup_p+lanePoint__size*j+lanePoint_iB+64(SI), d, Y13; \
	VADDPD Y13, Y9, Y9

// func laneKernel(groups []laneGroup, bodies *solverBody, p *laneParams, s *laneScratch)
TEXT ·laneKernel(SB), NOSPLIT, $0-48
	MOVQ groups_base+0(FP), SI
	MOVQ groups_len+8(FP), DI
	IMULQ $laneGroup__size, DI
	ADDQ SI, DI
	MOVQ bodies+24(FP), R8
	MOVQ p+32(FP), R11
	MOVQ s+40(FP), R9
	LEAQ laneScratch_dummy(R9), R14
	VXORPD Y10, Y10, Y10

group:
	CMPQ SI, DI
	JAE done

	// The bodies' velocities, and when fresh, A's displacement and n in
	// A's rotated frame (nA = ΔRᵀn).
	PTRS(laneGroup_a)
	CMPQ laneParams_warm(R11), $0
	JNE awarm
	LOAD6(solverBody_v, laneScratch_vA, laneScratch_wA)
	JMP aloaded

awarm:
	LOAD12(solverBody_v, laneScratch_vA, laneScratch_wA, laneScratch_wpA)

aloaded:
	CMPQ laneParams_fresh(R11), $0
	JEQ afresh
	TRANS4(solverBody_dp)
	VMOVUPD Y0, laneScratch_dpA+0(R9)
	VMOVUPD Y1, laneScratch_dpA+32(R9)
	VMOVUPD Y2, laneScratch_dpA+64(R9)
	VMOVUPD Y3, laneScratch_tmp+96(R9)
	ROTN(laneScratch_nA)

afresh:
	PTRS(laneGroup_b)
	CMPQ laneParams_warm(R11), $0
	JNE bwarm
	LOAD6(solverBody_v, laneScratch_vB, laneScratch_wB)
	JMP bloaded

bwarm:
	LOAD12(solverBody_v, laneScratch_vB, laneScratch_wB, laneScratch_wpB)

bloaded:
	CMPQ laneParams_fresh(R11), $0
	JEQ bfresh
	// dpn = n·(Δp_B − Δp_A) (dot(sub(B.dp, A.dp), n)), nB = ΔR_Bᵀn.
	TRANS4(solverBody_dp)
	VSUBPD laneScratch_dpA+0(R9), Y0, Y0
	VSUBPD laneScratch_dpA+32(R9), Y1, Y1
	VSUBPD laneScratch_dpA+64(R9), Y2, Y2
	VMOVUPD Y3, laneScratch_tmp+96(R9)
	DOTN(Y0, Y1, Y2, Y8)
	ROTN(laneScratch_nB)

bfresh:
	// vnLinear = n·(vB − vA) (dot(n, sub(vB, vA))); it and dpn go to
	// the scratch, where the first sweep reads them.
	VMOVUPD Y8, laneScratch_dpn(R9)
	VMOVUPD laneScratch_vB+0(R9), Y0
	VSUBPD laneScratch_vA+0(R9), Y0, Y0
	VMOVUPD laneScratch_vB+32(R9), Y1
	VSUBPD laneScratch_vA+32(R9), Y1, Y1
	VMOVUPD laneScratch_vB+64(R9), Y2
	VSUBPD laneScratch_vA+64(R9), Y2, Y2
	DOTN(Y0, Y1, Y2, Y9)
	VMOVUPD Y9, laneScratch_vnLin(R9)

	// First sweep, nothing carried from point to point: each point's
	// separation s (when fresh) and t = vnLinear + wB·rnB − wA·rnA, its
	// normal speed before this sweep's impulses. wA Y0-Y2, wB Y3-Y5,
	// nA Y6 Y7 Y14, nB Y15 Y10 Y11.
	VMOVUPD laneScratch_wA+0(R9), Y0
	VMOVUPD laneScratch_wB+0(R9), Y3
	VMOVUPD laneScratch_wA+32(R9), Y1
	VMOVUPD laneScratch_wB+32(R9), Y4
	VMOVUPD laneScratch_wA+64(R9), Y2
	VMOVUPD laneScratch_wB+64(R9), Y5
	CMPQ laneParams_fresh(R11), $0
	JEQ tfirst0
	VMOVUPD laneScratch_nA+0(R9), Y6
	VMOVUPD laneScratch_nB+0(R9), Y15
	VMOVUPD laneScratch_nA+32(R9), Y7
	VMOVUPD laneScratch_nB+32(R9), Y10
	VMOVUPD laneScratch_nA+64(R9), Y14
	VMOVUPD laneScratch_nB+64(R9), Y11
	SEP(0)
	TPT(0, 0)
	CMPQ laneGroup_npts(SI), $1
	JEQ firstdone
	SEP(1)
	TPT(1, 32)
	CMPQ laneGroup_npts(SI), $2
	JEQ firstdone
	SEP(2)
	TPT(2, 64)
	CMPQ laneGroup_npts(SI), $3
	JEQ firstdone
	SEP(3)
	TPT(3, 96)
	JMP firstdone

tfirst0:
	TPT(0, 0)
	CMPQ laneGroup_npts(SI), $1
	JEQ firstdone
	TPT(1, 32)
	CMPQ laneGroup_npts(SI), $2
	JEQ firstdone
	TPT(2, 64)
	CMPQ laneGroup_npts(SI), $3
	JEQ firstdone
	TPT(3, 96)

firstdone:
	// Second sweep: the Gauss–Seidel chain over the points
	// (pointImpulse, accumulate); δ_j in Y0-Y3, Σδ in Y11, Σλ in Y12.
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VBROADCASTSD laneParams_invH(R11), Y14
	VBROADCASTSD laneParams_negMaxPush(R11), Y15
	CMPQ laneParams_useBias(R11), $0
	JEQ rigid0
soft0:
	VN0
	SOFT(0, Y0)
	CMPQ laneGroup_npts(SI), $1
	JEQ swept
soft1:
	VN1
	SOFT(1, Y1)
	CMPQ laneGroup_npts(SI), $2
	JEQ swept
soft2:
	VN2
	SOFT(2, Y2)
	CMPQ laneGroup_npts(SI), $3
	JEQ swept
soft3:
	VN3
	SOFT(3, Y3)
	JMP swept
rigid0:
	VN0
	RIGID(0, Y0)
	CMPQ laneGroup_npts(SI), $1
	JEQ swept
rigid1:
	VN1
	RIGID(1, Y1)
	CMPQ laneGroup_npts(SI), $2
	JEQ swept
rigid2:
	VN2
	RIGID(2, Y2)
	CMPQ laneGroup_npts(SI), $3
	JEQ swept
rigid3:
	VN3
	RIGID(3, Y3)
	JMP swept

swept:
	// Idle lanes: total == 0 && sum == 0 && (useBias || friction idle).
	VCMPPD $0, Y10, Y12, Y4
	VCMPPD $0, Y10, Y11, Y5
	VANDPD Y5, Y4, Y4
	CMPQ laneParams_useBias(R11), $0
	JNE idled
	VMOVUPD laneGroup_f1(SI), Y5
	VCMPPD $0, Y10, Y5, Y5
	VANDPD Y5, Y4, Y4
	VMOVUPD laneGroup_f2(SI), Y5
	VCMPPD $0, Y10, Y5, Y5
	VANDPD Y5, Y4, Y4
	VMOVUPD laneGroup_twist(SI), Y5
	VCMPPD $0, Y10, Y5, Y5
	VANDPD Y5, Y4, Y4

idled:
	VCMPPD $0, Y10, Y10, Y5 // all ones
	VXORPD Y5, Y4, Y4
	VMOVUPD Y4, laneScratch_active(R9)
	VMOVMSKPD Y4, AX
	TESTL AX, AX
	JEQ next

	// Apply: w −= δ_j·iA_j, w += δ_j·iB_j (wA Y4-Y6, wB Y7-Y9). A lane
	// without point j has δ_j = +0 and iA_j = +0, iB_j = −0 there, so
	// the terms it adds are exact no-ops (w − (+0) and w + (−0) are w).
	VMOVUPD laneScratch_wA+0(R9), Y4
	VMOVUPD laneScratch_wB+0(R9), Y7
	VMOVUPD laneScratch_wA+32(R9), Y5
	VMOVUPD laneScratch_wB+32(R9), Y8
	VMOVUPD laneScratch_wA+64(R9), Y6
	VMOVUPD laneScratch_wB+64(R9), Y9
	APPLY(0, Y0)
	CMPQ laneGroup_npts(SI), $1
	JEQ applied
	APPLY(1, Y1)
	CMPQ laneGroup_npts(SI), $2
	JEQ applied
	APPLY(2, Y2)
	CMPQ laneGroup_npts(SI), $3
	JEQ applied
	APPLY(3, Y3)

applied:
	VMOVUPD Y4, laneScratch_wA+0(R9)
	VMOVUPD Y7, laneScratch_wB+0(R9)
	VMOVUPD Y5, laneScratch_wA+32(R9)
	VMOVUPD Y8, laneScratch_wB+32(R9)
	VMOVUPD Y6, laneScratch_wA+64(R9)
	VMOVUPD Y9, laneScratch_wB+64(R9)
	// v −= (mA·Σδ)·n, v += (mB·Σδ)·n
	VMOVUPD laneGroup_mA(SI), Y6
	VMULPD Y11, Y6, Y6
	VMOVUPD laneGroup_mB(SI), Y7
	VMULPD Y11, Y7, Y7
	VMULPD laneGroup_n+0(SI), Y6, Y13
	VMOVUPD laneScratch_vA+0(R9), Y0
	VSUBPD Y13, Y0, Y0
	VMOVUPD Y0, laneScratch_vA+0(R9)
	VMULPD laneGroup_n+32(SI), Y6, Y13
	VMOVUPD laneScratch_vA+32(R9), Y0
	VSUBPD Y13, Y0, Y0
	VMOVUPD Y0, laneScratch_vA+32(R9)
	VMULPD laneGroup_n+64(SI), Y6, Y13
	VMOVUPD laneScratch_vA+64(R9), Y0
	VSUBPD Y13, Y0, Y0
	VMOVUPD Y0, laneScratch_vA+64(R9)
	VMULPD laneGroup_n+0(SI), Y7, Y13
	VADDPD laneScratch_vB+0(R9), Y13, Y0
	VMOVUPD Y0, laneScratch_vB+0(R9)
	VMULPD laneGroup_n+32(SI), Y7, Y13
	VADDPD laneScratch_vB+32(R9), Y13, Y0
	VMOVUPD Y0, laneScratch_vB+32(R9)
	VMULPD laneGroup_n+64(SI), Y7, Y13
	VADDPD laneScratch_vB+64(R9), Y13, Y0
	VMOVUPD Y0, laneScratch_vB+64(R9)

	CMPQ laneParams_useBias(R11), $0
	JNE write
	CMPQ laneParams_friction(R11), $0
	JEQ frictioned

	// Relax: patch friction (tangentTarget, setTangent, twistImpulse).
	// maxF = mu·total
	VBROADCASTSD laneParams_mu(R11), Y0
	VMULPD Y12, Y0, Y0
	VMOVUPD Y0, laneScratch_maxF(R9)
	// dv = vB − vA; v1 = dv·t1 + wB·ctB0 − wA·ctA0 (Y3), v2 likewise (Y5)
	VMOVUPD laneScratch_vB+0(R9), Y0
	VSUBPD laneScratch_vA+0(R9), Y0, Y0
	VMOVUPD laneScratch_vB+32(R9), Y1
	VSUBPD laneScratch_vA+32(R9), Y1, Y1
	VMOVUPD laneScratch_vB+64(R9), Y2
	VSUBPD laneScratch_vA+64(R9), Y2, Y2
	DOT(Y0, Y1, Y2, laneGroup_t1+0(SI), laneGroup_t1+32(SI), laneGroup_t1+64(SI), Y3)
	DOTV(laneScratch_wB, R9, laneGroup_ctB0, SI, Y4)
	VADDPD Y4, Y3, Y3
	DOTV(laneScratch_wA, R9, laneGroup_ctA0, SI, Y4)
	VSUBPD Y4, Y3, Y3
	DOT(Y0, Y1, Y2, laneGroup_t2+0(SI), laneGroup_t2+32(SI), laneGroup_t2+64(SI), Y5)
	DOTV(laneScratch_wB, R9, laneGroup_ctB1, SI, Y4)
	VADDPD Y4, Y5, Y5
	DOTV(laneScratch_wA, R9, laneGroup_ctA1, SI, Y4)
	VSUBPD Y4, Y5, Y5
	// l1 = f1 − (tk11·v1 + tk12·v2) (Y0), l2 = f2 − (tk12·v1 + tk22·v2) (Y1)
	VMOVUPD laneGroup_tk11(SI), Y6
	VMULPD Y3, Y6, Y6
	VMOVUPD laneGroup_tk12(SI), Y7
	VMULPD Y5, Y7, Y7
	VADDPD Y7, Y6, Y6
	VMOVUPD laneGroup_f1(SI), Y0
	VSUBPD Y6, Y0, Y0
	VMOVUPD laneGroup_tk12(SI), Y6
	VMULPD Y3, Y6, Y6
	VMOVUPD laneGroup_tk22(SI), Y7
	VMULPD Y5, Y7, Y7
	VADDPD Y7, Y6, Y6
	VMOVUPD laneGroup_f2(SI), Y1
	VSUBPD Y6, Y1, Y1
	// Coulomb's cone: where l1² + l2² > maxF², scale by maxF/√(l1² + l2²).
	VMULPD Y0, Y0, Y2
	VMULPD Y1, Y1, Y3
	VADDPD Y3, Y2, Y2
	VMOVUPD laneScratch_maxF(R9), Y4
	VMULPD Y4, Y4, Y5
	VCMPPD $0x1E, Y5, Y2, Y5
	VSQRTPD Y2, Y2
	VDIVPD Y2, Y4, Y2
	VMULPD Y2, Y0, Y3
	VBLENDVPD Y5, Y3, Y0, Y0
	VMULPD Y2, Y1, Y3
	VBLENDVPD Y5, Y3, Y1, Y1
	// d1 = l1 − f1, d2 = l2 − f2; the friction becomes (l1, l2) where active.
	VMOVUPD laneScratch_active(R9), Y7
	VMOVUPD laneGroup_f1(SI), Y2
	VSUBPD Y2, Y0, Y3
	VMOVUPD Y3, laneScratch_d1(R9)
	VBLENDVPD Y7, Y0, Y2, Y2
	VMOVUPD Y2, laneGroup_f1(SI)
	VMOVUPD laneGroup_f2(SI), Y2
	VSUBPD Y2, Y1, Y3
	VMOVUPD Y3, laneScratch_d2(R9)
	VBLENDVPD Y7, Y1, Y2, Y2
	VMOVUPD Y2, laneGroup_f2(SI)
	// Twist: vt = (wB − wA)·n; lt = max(−maxT, min(maxT, twist − twMass·vt)).
	VMOVUPD laneScratch_wB+0(R9), Y0
	VSUBPD laneScratch_wA+0(R9), Y0, Y0
	VMOVUPD laneScratch_wB+32(R9), Y1
	VSUBPD laneScratch_wA+32(R9), Y1, Y1
	VMOVUPD laneScratch_wB+64(R9), Y2
	VSUBPD laneScratch_wA+64(R9), Y2, Y2
	DOTN(Y0, Y1, Y2, Y3)
	VMOVUPD laneScratch_maxF(R9), Y4
	VMULPD laneGroup_twLever(SI), Y4, Y4
	VMOVUPD laneGroup_twMass(SI), Y5
	VMULPD Y3, Y5, Y5
	VMOVUPD laneGroup_twist(SI), Y6
	VSUBPD Y5, Y6, Y5
	VMINPD Y5, Y4, Y5
	VXORPD laneScratch_sign(R9), Y4, Y4
	VMAXPD Y5, Y4, Y5
	VSUBPD Y6, Y5, Y3
	VMOVUPD Y3, laneScratch_dt(R9)
	VBLENDVPD Y7, Y5, Y6, Y6
	VMOVUPD Y6, laneGroup_twist(SI)
	// p = t1·d1 + d2·t2: v −= mA·p, v += mB·p; w −= itA0·d1 + d2·itA1 + dt·inA, w += the same of B.
	FRIC(0)
	FRIC(32)
	FRIC(64)

frictioned:
	CMPQ laneParams_warm(R11), $0
	JNE warmsums
	// The last substep: λ_total += λ at the active lanes' points.
	XORQ CX, CX
	LEAQ laneGroup_p(SI), DX

totals:
	CMPQ CX, laneGroup_npts(SI)
	JAE write
	VMOVUPD lanePoint_mask(DX), Y7
	VANDPD laneScratch_active(R9), Y7, Y7
	VMOVUPD lanePoint_total(DX), Y0
	VADDPD lanePoint_impulse(DX), Y0, Y1
	VBLENDVPD Y7, Y1, Y0, Y0
	VMOVUPD Y0, lanePoint_total(DX)
	ADDQ $lanePoint__size, DX
	INCQ CX
	JMP totals

warmsums:
	// λ_total += λ, and lA = Σ λ·rnA, lB = Σ λ·rnB (Y0-Y2, Y3-Y5).
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	XORQ CX, CX
	LEAQ laneGroup_p(SI), DX

sums:
	CMPQ CX, laneGroup_npts(SI)
	JAE summed
	VMOVUPD lanePoint_mask(DX), Y7
	VANDPD laneScratch_active(R9), Y7, Y7
	VMOVUPD lanePoint_impulse(DX), Y6
	VMOVUPD lanePoint_total(DX), Y8
	VADDPD Y6, Y8, Y9
	VBLENDVPD Y7, Y9, Y8, Y8
	VMOVUPD Y8, lanePoint_total(DX)
	SUM(Y0, lanePoint_rnA+0(DX))
	SUM(Y1, lanePoint_rnA+32(DX))
	SUM(Y2, lanePoint_rnA+64(DX))
	SUM(Y3, lanePoint_rnB+0(DX))
	SUM(Y4, lanePoint_rnB+32(DX))
	SUM(Y5, lanePoint_rnB+64(DX))
	ADDQ $lanePoint__size, DX
	INCQ CX
	JMP sums

summed:
	VMOVUPD Y0, laneScratch_lA+0(R9)
	VMOVUPD Y1, laneScratch_lA+32(R9)
	VMOVUPD Y2, laneScratch_lA+64(R9)
	VMOVUPD Y3, laneScratch_lB+0(R9)
	VMOVUPD Y4, laneScratch_lB+32(R9)
	VMOVUPD Y5, laneScratch_lB+64(R9)
	// lin = (n·total + f1·t1) + f2·t2, in tmp[0..2].
	LIN(0)
	LIN(32)
	LIN(64)
	// A.warmP −= lin, A.warmL −= ((lA + f1·ctA0) + f2·ctA1) + twist·n; B's +=.
	WARM(laneScratch_wpA, laneScratch_lA, laneGroup_ctA0, laneGroup_ctA1, VSUBPD, 0)
	WARM(laneScratch_wpA, laneScratch_lA, laneGroup_ctA0, laneGroup_ctA1, VSUBPD, 32)
	WARM(laneScratch_wpA, laneScratch_lA, laneGroup_ctA0, laneGroup_ctA1, VSUBPD, 64)
	WARM(laneScratch_wpB, laneScratch_lB, laneGroup_ctB0, laneGroup_ctB1, VADDPD, 0)
	WARM(laneScratch_wpB, laneScratch_lB, laneGroup_ctB0, laneGroup_ctB1, VADDPD, 32)
	WARM(laneScratch_wpB, laneScratch_lB, laneGroup_ctB0, laneGroup_ctB1, VADDPD, 64)

write:
	// The active lanes' bodies take their new velocities (and warm-start
	// sums); the idle lanes' stores go to the dummy.
	VMOVUPD laneScratch_active(R9), Y0
	VMOVMSKPD Y0, R15
	PTRS(laneGroup_a)
	MOVQ R15, AX
	IDLE
	CMPQ laneParams_warm(R11), $0
	JNE wwarmA
	STORE6(solverBody_v, laneScratch_vA, laneScratch_wA)
	JMP wroteA

wwarmA:
	STORE12(solverBody_v, laneScratch_vA, laneScratch_wA, laneScratch_wpA)

wroteA:
	PTRS(laneGroup_b)
	MOVQ R15, AX
	IDLE
	CMPQ laneParams_warm(R11), $0
	JNE wwarmB
	STORE6(solverBody_v, laneScratch_vB, laneScratch_wB)
	JMP next

wwarmB:
	STORE12(solverBody_v, laneScratch_vB, laneScratch_wB, laneScratch_wpB)

next:
	ADDQ $laneGroup__size, SI
	JMP group

done:
	VZEROUPPER
	RET

// func transposeRun(dst *lane4, src *[4]unsafe.Pointer, n int)
//
// n doubles from each of the four sources become n vectors of four lanes
// at dst (transposeRunGo), four doubles at a time, then one.
TEXT ·transposeRun(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ 0(SI), R10
	MOVQ 8(SI), R12
	MOVQ 16(SI), R13
	MOVQ 24(SI), BX

runs4:
	CMPQ CX, $4
	JB runs1
	TRANS4(0)
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ $32, R10
	ADDQ $32, R12
	ADDQ $32, R13
	ADDQ $32, BX
	ADDQ $128, DI
	SUBQ $4, CX
	JMP runs4

runs1:
	TESTQ CX, CX
	JEQ transposed
	VMOVSD (R10), X0
	VMOVHPD (R12), X0, X0
	VMOVSD (R13), X1
	VMOVHPD (BX), X1, X1
	VINSERTF128 $1, X1, Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ $8, R10
	ADDQ $8, R12
	ADDQ $8, R13
	ADDQ $8, BX
	ADDQ $32, DI
	DECQ CX
	JMP runs1

transposed:
	VZEROUPPER
	RET
