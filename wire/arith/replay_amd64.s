//go:build amd64 && !purego

#include "textflag.h"
#include "go_asm.h"

// replayKernel is Encoder.replayGo (steps.go) in assembly: the same
// operations in the same order, so the same bytes, costs, decisions and
// models. Registers for the whole loop:
//
//	SI  the step being replayed     DI  the end of the steps
//	R8  base (the models' block)    R12 kernelTab (every table)
//	R9  low                         R10 rng (32 bits)
//	R11 the cost not yet charged to e.Tag
//	X13, X14 the weights' bounds, X15 the fast estimate's mask (4 lanes),
//	X12 PSHUFB's pattern that copies a word into each lane's low half
//
// and on the stack the decisions coded (n), the class (cls) and where a
// renormalisation returns to (back).
//
// A mixed decision (StepMix2, StepMix3), in registers:
//
//	AX m3 (-1 for three inputs, 0 for two)   BX A   CX C (A for two)
//	DX B + cls*Stride                         X0 s0..s3, X1 s4, s5
//	X7 the Probs a, b, c (moved in four lanes when all three have
//	settled and no two are the same Prob at this class, else one after
//	the other in the calls' order c, a, b through the rates' table)
//	X2, X3 the weights                         CX pv, DX the bit (coding)
//
// The Probs move before the weights are read, where the Go loop moves
// them after writing the weights: the same result, since a step's Probs
// and its Mixer are different models (no Prob lies in a Mixer's weights;
// the snapshot coder's layout and the tests' blocks keep them apart).
#define n_ n-8(SP)
#define cls_ cls-16(SP)
#define back_ back-24(SP)

// MOVED moves the Prob at base+off (a register) by Prob.moved, with R14
// the bit times 32 (its row of kernelTab.flipUp); it uses BP, R13 and R15.
// q = p^flip; d = (q&4095+up)·fast>>16 | (q>>16+up)·slow&^0xFFFF; the
// result is (q-d+step)^flip. The slow part and the step are taken first:
// neither changes q's low 12 bits, which the fast part then reads.
#define MOVED(off) \
	MOVL (R8)(off*1), BP; \
	XORL kernelTables_flipUp(R12)(R14*1), BP; \
	MOVL BP, R15; \
	SHRL $12, R15; \
	ANDL $15, R15; \
	SHLL $4, R15; \
	MOVL BP, R13; \
	SHRL $16, R13; \
	ADDL kernelTables_flipUp+16(R12)(R14*1), R13; \
	IMULL kernelTables_rates+4(R12)(R15*1), R13; \
	ANDL $0xFFFF0000, R13; \
	ADDL kernelTables_rates+8(R12)(R15*1), BP; \
	SUBL R13, BP; \
	MOVL BP, R13; \
	ANDL $4095, R13; \
	ADDL kernelTables_flipUp+16(R12)(R14*1), R13; \
	IMULL kernelTables_rates(R12)(R15*1), R13; \
	SHRL $16, R13; \
	SUBL R13, BP; \
	XORL kernelTables_flipUp(R12)(R14*1), BP; \
	MOVL BP, (R8)(off*1)

// func replayKernel(e *Encoder, base unsafe.Pointer, steps []Step, classes *[256]uint8)
TEXT ·replayKernel(SB), 0, $32-48
	MOVQ e+0(FP), BX
	MOVQ base+8(FP), R8
	MOVQ steps_base+16(FP), SI
	MOVQ steps_len+24(FP), DI
	IMULQ $Step__size, DI
	ADDQ SI, DI
	MOVQ Encoder_low(BX), R9
	MOVL Encoder_rng(BX), R10
	XORL R11, R11
	LEAQ ·kernelTab(SB), R12
	MOVOU kernelTables_wmax(R12), X13
	MOVOU kernelTables_wmin(R12), X14
	MOVOU kernelTables_fast(R12), X15
	MOVOU kernelTables_bcast(R12), X12
	MOVQ $0, n_
	MOVQ $0, cls_
	CMPQ SI, DI
	JAE done

loop:
	MOVBLZX Step_Kind(SI), AX
	DECL AX // StepMix2 → 0, StepMix3 → 1
	CMPL AX, $1
	JA other

	// A mixed decision. The offsets: A, C (A for two inputs), B at the
	// class.
	NEGL AX
	MOVL Step_A(SI), BX
	MOVL Step_C(SI), CX
	SUBL BX, CX
	ANDL AX, CX
	ADDL BX, CX
	MOVL Step_Stride(SI), DX
	IMULL cls_, DX
	ADDL Step_B(SI), DX

	// The stretched inputs, and the three Probs into X7; R13 gathers
	// their counts.
	MOVL (R8)(BX*1), BP
	MOVL BP, R13
	MOVL BP, X7
	MOVL BP, R15
	ANDL $4095, R15
	MOVL kernelTables_stretch(R12)(R15*4), X0
	SHRL $20, BP
	PINSRD $1, kernelTables_stretch(R12)(BP*4), X0

	MOVL (R8)(DX*1), BP
	ANDL BP, R13
	PINSRD $1, BP, X7
	MOVL BP, R15
	ANDL $4095, R15
	PINSRD $2, kernelTables_stretch(R12)(R15*4), X0
	SHRL $20, BP
	PINSRD $3, kernelTables_stretch(R12)(BP*4), X0

	// The third input, weighed by 0 when there are two.
	MOVL (R8)(CX*1), BP
	ANDL BP, R13
	PINSRD $2, BP, X7
	MOVL BP, R15
	ANDL $4095, R15
	MOVL kernelTables_stretch(R12)(R15*4), R15
	ANDL AX, R15
	MOVL R15, X1
	SHRL $20, BP
	MOVL kernelTables_stretch(R12)(BP*4), BP
	ANDL AX, BP
	PINSRD $1, BP, X1

	// The Probs move now: they depend on the bit, known, and not on the
	// mix, whose inputs are taken. In four lanes when all three have
	// settled and are three different Probs at this class (below the
	// step's firstHit; a two-input decision's C is A, moved in two lanes
	// to the same value, stored twice).
	MOVBLZX Step_Bit(SI), R14
	ANDL $1, R14
	SHLL $5, R14
	ANDL $0xF000, R13
	CMPL R13, $0xF000
	JNE moveone
	MOVL cls_, R15
	CMPW R15, Step_firstHit(SI)
	JCC moveone

movelanes:
	MOVOU kernelTables_flipUp(R12)(R14*1), X8
	MOVOU kernelTables_flipUp+16(R12)(R14*1), X9
	PXOR X8, X7
	MOVO X7, X10
	PAND X15, X10
	PADDL X9, X10
	PSRLL $4, X10
	MOVO X7, X11
	PSRLL $16, X11
	PADDL X9, X11
	PSRLL $6, X11
	PSLLL $16, X11
	POR X11, X10
	PSUBL X10, X7
	PXOR X8, X7
	PEXTRD $2, X7, (R8)(CX*1)
	MOVL X7, (R8)(BX*1)
	PEXTRD $1, X7, (R8)(DX*1)
	JMP mix

moveone:
	// One after the other, in the calls' order c, a, b, each from
	// where the last left it (a Prob named twice moves twice); a
	// two-input decision's C is its A, moved once.
	TESTL AX, AX
	JEQ movea
	MOVED(CX)

movea:
	MOVED(BX)
	MOVED(DX)

mix:
	// The dot product: six products, summed in 64 bits (each fits in
	// 32 bits: |w| ≤ 2^20, |s| < 2^11).
	MOVL Step_M(SI), BX
	MOVOU (R8)(BX*1), X2
	MOVQ 16(R8)(BX*1), X3
	// PMULDQ multiplies the even lanes into 64 bits (5 cycles, where a
	// 32-bit PMULLD takes 10); the odd lanes are shifted down to be
	// even. The inputs' shifts (X8, X9) do not wait on the weights.
	MOVO X0, X8
	PSRLQ $32, X8
	MOVO X1, X9
	PSRLQ $32, X9
	MOVO X0, X4
	PMULDQ X2, X4
	MOVO X2, X5
	PSRLQ $32, X5
	PMULDQ X5, X8
	MOVO X1, X6
	PMULDQ X3, X6
	MOVO X3, X5
	PSRLQ $32, X5
	PMULDQ X5, X9
	PADDQ X8, X4
	PADDQ X9, X6
	PADDQ X6, X4
	PSHUFD $0xEE, X4, X6
	PADDQ X6, X4
	MOVQ X4, CX
	SARQ $16, CX
	// Clamped to ±2047 by conditional moves: whether the mix goes past
	// the squash table's ends depends on the data, and a branch on it
	// was guessed wrong often enough to cost more than the two moves.
	MOVQ $2047, R13
	MOVQ $-2047, R15
	CMPQ CX, R13
	CMOVQGT R13, CX
	CMPQ CX, R15
	CMOVQLT R15, CX

squash:
	// pv, into CX and into the low word of X6.
	MOVL kernelTables_squash+4094(R12)(CX*2), X6
	MOVWLZX kernelTables_squash+4094(R12)(CX*2), CX
	MOVBLZX Step_Bit(SI), DX
	ANDL $1, DX

	// err = 4095 after a 0, 0 after a 1, minus pv; each weight moves by
	// s·err>>11 and stays in ±2^20. err is a 16-bit word in each lane's
	// low half, 0 in its high half, so that PMADDWL (16-bit products,
	// adjacent pairs summed) makes s·err exactly, s in ±2047 and err in
	// ±4095 being 16-bit values: half the latency of a 32-bit product on
	// the chain a run of decisions on one Mixer waits on.
	PSHUFB X12, X6
	MOVOU kernelTables_errE(R12)(R14*1), X5
	PSUBW X6, X5
	PMADDWL X5, X0
	PSRAL $11, X0
	PADDL X2, X0
	PMINSD X13, X0
	PMAXSD X14, X0
	MOVOU X0, (R8)(BX*1)
	PMADDWL X5, X1
	PSRAL $11, X1
	PADDL X3, X1
	PMINSD X13, X1
	PMAXSD X14, X1
	MOVQ X1, 16(R8)(BX*1)

code:
	// The decision, pv in CX and the bit in DX: encodeP with the bit as
	// a mask (all ones for a 1).
	MOVL DX, AX
	NEGL AX
	MOVL R10, BX
	SHRL $12, BX
	IMULL CX, BX
	SUBL BX, R10
	SUBL BX, R10
	ANDL AX, R10
	ADDL BX, R10
	ANDL AX, BX
	ADDQ BX, R9
	ANDL $4095, AX
	XORL CX, AX
	ADDL DX, AX
	SHRL $4, AX
	ANDL $255, AX
	MOVL kernelTables_cost(R12)(AX*4), AX
	ADDQ AX, R11
	INCQ n_
	CMPL R10, $0x1000000
	JCS renormcode

next:
	ADDQ $Step__size, SI
	CMPQ SI, DI
	JB loop

done:
	MOVQ e+0(FP), BX
	MOVQ R9, Encoder_low(BX)
	MOVL R10, Encoder_rng(BX)
	MOVQ Encoder_Tag(BX), CX
	ANDL $(const_NumTags-1), CX
	ADDQ R11, Encoder_Costs(BX)(CX*8)
	MOVQ n_, AX
	ADDQ AX, Encoder_decisions(BX)
	RET

other:
	// AX is the kind minus 1: StepPlain is -1, then StepDirect,
	// StepTag, StepClass 2, 3, 4; any other kind is skipped.
	CMPL AX, $-1
	JEQ plain
	CMPL AX, $2
	JEQ direct
	CMPL AX, $3
	JEQ tag
	CMPL AX, $4
	JNE next

	// StepClass: the class is classes[the byte at base+A].
	MOVL Step_A(SI), AX
	MOVBLZX (R8)(AX*1), AX
	MOVQ classes+40(FP), BX
	MOVBLZX (BX)(AX*1), AX
	MOVQ AX, cls_
	JMP next

tag:
	// StepTag: the cost so far to the tag in force, then the new tag.
	MOVQ e+0(FP), BX
	MOVQ Encoder_Tag(BX), CX
	ANDL $(const_NumTags-1), CX
	ADDQ R11, Encoder_Costs(BX)(CX*8)
	XORL R11, R11
	MOVLQSX Step_A(SI), CX
	MOVQ CX, Encoder_Tag(BX)
	JMP next

plain:
	// StepPlain: pv is p0, the estimates' mean kept in [1, 4095].
	MOVL Step_A(SI), BX
	MOVL (R8)(BX*1), CX
	MOVL CX, AX
	SHRL $20, AX
	ANDL $4095, CX
	ADDL AX, CX
	SHRL $1, CX
	CMPL CX, $1
	JCS plainlo
	CMPL CX, $4095
	JHI plainhi

plainmove:
	MOVBLZX Step_Bit(SI), DX
	ANDL $1, DX
	MOVL DX, R14
	SHLL $5, R14
	MOVED(BX)
	JMP code

plainlo:
	MOVL $1, CX
	JMP plainmove

plainhi:
	MOVL $4095, CX
	JMP plainmove

direct:
	// StepDirect: Bit equiprobable bits of A, high bit first; AX the
	// value, CX the bit's index.
	MOVL Step_A(SI), AX
	MOVBLZX Step_Bit(SI), CX
	MOVQ CX, DX
	SHLQ $8, DX
	ADDQ DX, R11
	ADDQ CX, n_

directbit:
	TESTL CX, CX
	JEQ next
	DECL CX
	SHRL $1, R10
	CMPL CX, $32
	JCC directrenorm
	// low += rng when the bit is 1, by a mask rather than a branch: raw
	// bits are as random as they come, so a branch on them is guessed
	// wrong half the time (it cost a replay a fifth of its time).
	MOVL AX, DX
	SHRL CX, DX
	ANDL $1, DX
	NEGL DX
	ANDL R10, DX
	ADDQ DX, R9

directrenorm:
	CMPL R10, $0x1000000
	JCC directbit
	MOVQ $1, back_
	JMP renorm

renormcode:
	MOVQ $0, back_

renorm:
	// rng <<= 8 and shiftLow, written out, until rng ≥ 2^24; then back
	// to the decision's end (back 0) or the next direct bit (back 1).
	// Uses BX, DX, BP, R13, R14, R15 (AX and CX are a direct step's).
	SHLL $8, R10
	MOVQ e+0(FP), BX
	CMPL R9, $0xFF000000
	JCS settle
	MOVQ R9, R15
	SHRQ $32, R15
	JEQ pend

settle:
	// The held-back bytes (cache and the 0xFF run after it) are
	// settled: each written plus the carry, the first byte of the
	// stream skipped.
	MOVQ R9, R15
	SHRQ $32, R15 // the carry
	MOVBLZX Encoder_cache(BX), R14
	ADDL R15, R14 // the byte to write
	MOVQ Encoder_pending(BX), DX

settleloop:
	TESTQ DX, DX
	JLE settled
	CMPB Encoder_started(BX), $0
	JNE settlewrite
	MOVB $1, Encoder_started(BX)
	JMP settlenext

settlewrite:
	MOVQ Encoder_n(BX), BP
	CMPQ BP, Encoder_buf+8(BX)
	JGE settleover
	MOVQ Encoder_buf(BX), R13
	MOVB R14, (R13)(BP*1)
	INCQ BP
	MOVQ BP, Encoder_n(BX)
	JMP settlenext

settleover:
	MOVB $1, Encoder_overflow(BX)

settlenext:
	LEAL 0xFF(R15), R14
	DECQ DX
	JMP settleloop

settled:
	MOVQ DX, Encoder_pending(BX)
	MOVQ R9, R15
	SHRQ $24, R15
	MOVB R15, Encoder_cache(BX)

pend:
	INCQ Encoder_pending(BX)
	ANDL $0xFFFFFF, R9
	SHLQ $8, R9
	CMPL R10, $0x1000000
	JCS renorm
	CMPQ back_, $0
	JEQ next
	JMP directbit
